# libFuzzer harnesses (built with clang when present).
