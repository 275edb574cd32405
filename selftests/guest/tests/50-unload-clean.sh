# SPDX-License-Identifier: GPL-2.0
# Unload leaves nothing behind: no sysfs directory, no module directory,
# and the scheduler keeps running without the module's code (a left-over
# probe would oops here, which the host catches in the console log).
load >/dev/null
check "unload: /sys/kernel/hmpgov exists while loaded" [ -d $SYS ]
unload >/dev/null
check "unload: /sys/kernel/hmpgov is gone" [ ! -e $SYS ]
check "unload: /sys/module/hmpgov is gone" [ ! -e /sys/module/hmpgov ]
start_forkers 2
sleep 1
stop_forkers
check "unload: the system keeps scheduling after rmmod" true
