# kli: filled in by the kli authority work.
