# OpenBench's entry point: `make EXE=<path>` builds the release binary to that path.
# No target-cpu is baked in: the binary picks its CPU-specific code paths at run time.
# FEATURES=tune builds the tuning binary (every search parameter a UCI option).
EXE ?= chariot
FEATURES ?=

all:
	cargo build --release $(if $(FEATURES),--features $(FEATURES))
	cp target/release/chariot $(EXE)

.PHONY: all
