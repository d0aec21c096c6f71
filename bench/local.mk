# SPDX-License-Identifier: MIT
# Benchmarks (issue 8): `make bench` builds three small helpers and runs
# bench/run.sh with this build's kjail and kli. Nothing here is part of
# `make all` or `make check` (EXTRA_PROGRAMS are built only on demand).
#
#   make bench                              the whole run, table in bench/results.md
#   make bench BENCH_ARGS='--with-peers'    also firejail and srt (installs them)
#   make bench BENCH_ARGS='--quick'         a smoke test of the script
#
# bench/fdexec opens descriptors at fixed numbers and execs (the raw bwrap
# lines), bench/seccomp-dump writes kjail's seccomp program to a file (it
# links kjail's own seccomp_export), bench/covers-bench times kli's
# grant_covers on a 1,000-constraint grant (it links libkli.a).
BENCH_BINS = bench/fdexec bench/seccomp-dump bench/covers-bench bench/proxy-bench
EXTRA_PROGRAMS = $(BENCH_BINS)

# Only libc: its own start-up is the overhead it adds to the raw bwrap lines.
bench_fdexec_SOURCES = bench/fdexec.c
bench_fdexec_CPPFLAGS =
bench_fdexec_CFLAGS = -std=gnu11 -Wall -Wextra $(WERROR_CFLAGS)

bench_seccomp_dump_SOURCES = bench/seccomp-dump.c
bench_seccomp_dump_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/kjail
bench_seccomp_dump_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
bench_seccomp_dump_LDADD = $(KJAIL_LIBS)

bench_covers_bench_SOURCES = bench/covers-bench.c
bench_covers_bench_CPPFLAGS = $(KLI_CPPFLAGS)
bench_covers_bench_CFLAGS = $(KLI_CFLAGS)
bench_covers_bench_LDADD = $(KLI_LIBS)

# bench/proxy-bench: the egress proxy, fast and bounded (issues 26 and 38):
# 1 GiB through one tunnel against a bare poll relay and a direct copy; the
# latency a new connection gains; 1,024 CONNECT tunnels open at once, every
# byte checked, with the proxy's CPU time and its peak resident memory
# against its budget. Its section goes to bench/proxy-results.md; `make
# bench-proxy` runs it alone (PROXY_BENCH_ARGS='--quick' for a smoke test).
bench_proxy_bench_SOURCES = bench/proxy-bench.c
bench_proxy_bench_CPPFLAGS = $(AM_CPPFLAGS)
bench_proxy_bench_CFLAGS = $(AM_CFLAGS) $(PTHREAD_CFLAGS)
bench_proxy_bench_LDADD = $(KJAIL_LIBS)
PROXY_BENCH_ARGS =
bench-proxy: bench/proxy-bench$(EXEEXT)
	./bench/proxy-bench$(EXEEXT) --out '$(abs_builddir)/bench/proxy-results.md' \
		--log '$(abs_builddir)/bench/proxy-bench.log' $(PROXY_BENCH_ARGS)
.PHONY: bench-proxy

# bench/net-start.py: what --allow-host adds to a run against -n (issue
# 38, acceptance 6: within 20 ms), interleaved rounds; `make
# bench-net-start` (NET_START_ARGS='--rounds 20' for a quick look).
NET_START_ARGS =
bench-net-start: all
	python3 $(srcdir)/bench/net-start.py --kjail '$(abs_builddir)/kjail$(EXEEXT)' \
		--out '$(abs_builddir)/bench/net-start.md' $(NET_START_ARGS)
.PHONY: bench-net-start
EXTRA_DIST += bench/net-start.py

BENCH_ARGS =
bench-programs: $(BENCH_BINS)
# `all` first: kjail runs its entry helper (kjail-entry) from beside itself.
bench: bench-programs
	$(MAKE) $(AM_MAKEFLAGS) all
	$(SHELL) $(srcdir)/bench/run.sh --kjail '$(abs_builddir)/kjail$(EXEEXT)' \
		--kli '$(abs_builddir)/kli$(EXEEXT)' --helpers '$(abs_builddir)/bench' \
		--out '$(abs_builddir)/bench/results.md' $(BENCH_ARGS)
	q=; case ' $(BENCH_ARGS) ' in *' --quick '*) q=--quick ;; esac; \
	$(MAKE) $(AM_MAKEFLAGS) bench-proxy PROXY_BENCH_ARGS="$$q $(PROXY_BENCH_ARGS)"
.PHONY: bench bench-programs

EXTRA_DIST += bench/run.sh bench/README.md doc/performance.md
CLEANFILES += $(BENCH_BINS) bench/results.md bench/proxy-results.md bench/proxy-bench.log
