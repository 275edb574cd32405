# SPDX-License-Identifier: GPL-2.0
# hmpgov: user-facing targets. The kernel build itself is described in
# Kbuild; this file only drives it and the project's scripts.
#
#   make                 build hmpgov.ko for the running kernel (KDIR=...)
#   make install         install it into /lib/modules (modules_install)
#   make dkms-install    register, build and install it with DKMS
#   make dkms-uninstall  remove it from DKMS
#   make demo            the main job: hmpgov in the default QEMU machine
#   make check           set up and run the whole test matrix
#   make bench           benchmarks (scripts/bench-*.sh), one after another
#   make unit            the host unit tests only
#   make mutants         the unit tests must catch each mutant of the policy
#   make lint            checkpatch.pl --strict
#   make clean

KDIR ?= /lib/modules/$(shell uname -r)/build
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -rf build

dkms-install:
	scripts/dkms-source.sh /usr/src/hmpgov-$(VERSION)
	dkms add -m hmpgov -v $(VERSION)
	dkms install -m hmpgov -v $(VERSION)

dkms-uninstall:
	dkms remove -m hmpgov -v $(VERSION) --all
	rm -rf /usr/src/hmpgov-$(VERSION)

demo:
	scripts/demo.sh

check:
	scripts/check.sh

bench:
	scripts/bench-placement.sh
	scripts/plot-residency.sh
	scripts/bench-timeline.sh
	scripts/bench-thirdparty.sh
	scripts/bench-speed.sh
	scripts/bench-tracking.sh
	scripts/bench-scale.sh
	scripts/bench-rtapp.sh --write
	scripts/bench-rtlatency.sh
	scripts/bench-account.sh

unit:
	scripts/unit-tests.sh

mutants:
	scripts/mutants.sh

lint:
	scripts/lint.sh

.PHONY: all modules install clean dkms-install dkms-uninstall demo check bench unit mutants lint
