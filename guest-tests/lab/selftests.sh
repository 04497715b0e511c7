# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "selftests": the kernel's own tools/testing/selftests/drivers/net tests against the
# DUT, the way netdev's CI runs them on hardware (their README.rst, "Variables"): NETIF is the
# DUT, the remote end is the partner NIC in its network namespace (REMOTE_TYPE=netns), named
# "lab-partner" here because the tests reach it with `ip netns exec`. The tests, their kernel's
# lib/py, YNL and netlink specs are at /opt/ksrc (the tree's own layout), Python 3, iproute2,
# iputils-ping, socat and bash are Debian's: an overlay scripts/regress appends for this case
# only (scripts/regress_lib/selftests.py), listing the tests in /selftests/tests, one
# "<path under tools/testing/selftests> <limit in virtual seconds>" per line.
# Each test prints KTAP between
#   SELFTEST BEGIN name=<path>
#   SELFTEST END name=<path> rc=<exit> ms=<virtual ms>      (rc 137: killed at its limit)
# and the host judges each from its KTAP; the case itself fails only when the set-up fails.
KSRC=/opt/ksrc
NETNS_NAME=lab-partner
ST=$KSRC/tools/testing/selftests
[ -s /selftests/tests ] || lab_fail "no /selftests/tests: the selftests overlay is missing (scripts/regress --scenarios selftests appends it)"
command -v python3 >/dev/null || lab_fail "no python3 in the guest: the selftests overlay is missing"
# The image's busybox shell runs its own applets before any file on PATH (ip, ping, timeout,
# ...): iproute2 is named by its path here, and the tests' shell commands (Python's
# subprocess runs /bin/sh -c) get Debian's bash as /bin/sh from now on, so that their "ip -j",
# "ping -W0.5" and "socat" are the Debian programs on PATH.
IP=/bin/ip
$IP -V 2>&1 | grep -q iproute2 || lab_fail "$IP is not iproute2's ($($IP -V 2>&1 | head -n1)): the selftests overlay is missing"
[ -x /bin/bash ] || lab_fail "no /bin/bash: the selftests overlay is missing"
ln -sf bash /bin/sh

mkdir -p /run/netns /var
[ -e /var/run ] || ln -s /run /var/run
$IP netns attach "$NETNS_NAME" "$NS" || lab_fail "ip netns attach $NETNS_NAME $NS"
echo 0 >"/proc/sys/net/ipv6/conf/$IFA/accept_dad"
ns sh -c "echo 0 >/proc/sys/net/ipv6/conf/$IFB/accept_dad"
$IP -6 addr add fd00:9::1/64 dev "$IFA" nodad || lab_fail "ip -6 addr add on the DUT"
ns $IP -6 addr add fd00:9::2/64 dev "$IFB" nodad || lab_fail "ip -6 addr add on the partner"
guest_wait 30 ping -6 -c 1 -W 1 fd00:9::2 >/dev/null 2>&1 || lab_fail "no IPv6 ping to the partner"

export NETIF="$IFA" LOCAL_V4=10.9.0.1 REMOTE_V4=10.9.0.2 LOCAL_V6=fd00:9::1 REMOTE_V6=fd00:9::2
export REMOTE_TYPE=netns REMOTE_ARGS="$NETNS_NAME"
# one hash seed: the run is a function of its inputs like every lab run
# NO_COLOR: plain result lines in the console log (newer ksft.py colours them on a terminal)
export PYTHONHASHSEED=0 PYTHONDONTWRITEBYTECODE=1 NO_COLOR=1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

n=0
while read -r path limit; do
  [ -n "$path" ] || continue
  n=$((n + 1))
  dir=$ST/${path%/*}
  t0=$(lab_now_ns)
  echo "SELFTEST BEGIN name=$path"
  # (the image has no /usr/bin/env for the tests' "#!/usr/bin/env python3")
  case "$path" in *.py) run=python3;; *) run=bash;; esac
  ( cd "$dir" && exec timeout -s KILL "$limit" $run "./${path##*/}" ) </dev/null 2>&1
  rc=$?
  echo "SELFTEST END name=$path rc=$rc ms=$(( ($(lab_now_ns) - t0) / 1000000 ))"
  # a test that left the DUT down or the partner elsewhere would fail the next one for it
  $IP link set "$IFA" up 2>/dev/null
  ns $IP link set "$IFB" up 2>/dev/null
done </selftests/tests
lab_result "tests=$n"
lab_done "$n selftests run"
