#!/bin/sh
# `npm run cluster`'s reaper: it stops what the cluster's supervisor started should the supervisor
# die without doing it (SIGKILL, a crash, a second Ctrl-C), since the PostgreSQL servers are nobody's
# children and a killed process runs no clean-up of its own.
#
#   cluster-reaper.sh SUPERVISOR_PID MANIFEST   once SUPERVISOR_PID is gone, reaps what MANIFEST lists;
#                                               exits without reaping once MANIFEST is removed (a clean stop)
#   cluster-reaper.sh now MANIFEST              reaps at once
#
# MANIFEST has one entry a line, appended as each part is created:
#   pid N          a child process, the leader of its own process group: the group is killed
#   exited N       that child has exited (its pid may since belong to someone else)
#   postmaster D   a PostgreSQL data directory: the pid on D/postmaster.pid's first line gets SIGQUIT
#                  (immediate shutdown: its backends go with it), then SIGKILL after 10 s
#   dir D          a temporary directory, removed last
# Written for POSIX sh: `sleep 1` polls, nothing finer.
set -u
supervisor=$1
manifest=$2
trap '' INT HUP

# The pid recorded in a data directory, if any.
postmaster_pid() {
  pid=$(head -n 1 "$1/postmaster.pid" 2>/dev/null) || return 1
  case $pid in '' | *[!0-9]*) return 1 ;; esac
  echo "$pid"
}

# Lines of MANIFEST of one kind, without the kind.
entries() {
  sed -n "s/^$1 //p" "$manifest" 2>/dev/null
}

# Sends SIGNAL to every postmaster still running; fails when none is.
signal_postmasters() {
  found=1
  while IFS= read -r data; do
    [ -n "$data" ] || continue
    pid=$(postmaster_pid "$data") || continue
    kill "-$1" "$pid" 2>/dev/null && found=0
  done <<EOF
$(entries postmaster)
EOF
  return $found
}

reap() {
  [ -f "$manifest" ] || return 0
  exited=" $(entries exited | tr '\n' ' ') "
  # Processes first, so that nothing writes into the directories being removed.
  for pid in $(entries pid); do
    case $exited in *" $pid "*) continue ;; esac
    kill -KILL "-$pid" 2>/dev/null
    kill -KILL "$pid" 2>/dev/null
  done
  if signal_postmasters QUIT; then
    tries=0
    while [ "$tries" -lt 10 ] && signal_postmasters 0; do
      sleep 1
      tries=$((tries + 1))
    done
    signal_postmasters KILL
  fi
  entries dir | while IFS= read -r dir; do
    # Only what the helpers create (mkdtemp's quire-*), whatever else the file may say.
    case $dir in */quire-*) rm -rf -- "$dir" ;; esac
  done
  rm -f -- "$manifest"
  rmdir -- "$(dirname -- "$manifest")" 2>/dev/null
  return 0
}

if [ "$supervisor" != now ]; then
  while [ -f "$manifest" ] && kill -0 "$supervisor" 2>/dev/null; do
    sleep 1
  done
fi
reap
