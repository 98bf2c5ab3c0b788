# OpenBench's entry point: `make EXE=<path>` builds the release binary to that path.
# No target-cpu is baked in: the binary picks its CPU-specific code paths at run time.
EXE ?= chariot

all:
	cargo build --release
	cp target/release/chariot $(EXE)

.PHONY: all
