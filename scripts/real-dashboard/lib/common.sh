# Shared helpers of real-dashboard.sh: logging, bounded waits, processes owned by PID, ports.

say() { printf '[real-dashboard %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { say "error: $*"; exit 1; }

# within SECONDS CMD...: run CMD once a second until it succeeds; fails after SECONDS tries.
within() {
	local limit=$1 i
	shift
	for ((i = 0; i < limit; i++)); do
		"$@" && return 0
		sleep 1
	done
	return 1
}

# owned PIDFILE WORD: the process in PIDFILE is alive and its command line contains WORD,
# so a PID the kernel has since given to another program is never taken for ours.
owned() {
	local pid
	[[ -s $1 ]] || return 1
	pid=$(<"$1")
	[[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# stop_owned PIDFILE WORD GROUP: TERM the process (GROUP=group: its whole process group, as the
# php -S workers share their leader's), wait up to 15 s, then KILL what is left.
stop_owned() {
	local file=$1 word=$2 target pid i
	if owned "$file" "$word"; then
		pid=$(<"$file")
		target=$pid
		[[ $3 == group ]] && target=-$pid
		say "stopping $(basename "$file" .pid) (pid $pid)"
		kill -TERM -- "$target" 2>/dev/null || true
		for ((i = 0; i < 60; i++)); do
			kill -0 -- "$target" 2>/dev/null || break
			sleep 0.25
		done
		kill -0 -- "$target" 2>/dev/null && kill -KILL -- "$target" 2>/dev/null
	fi
	rm -f "$file"
}

port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }

# free_port PORT WHAT VARIABLE: stop with a message naming the variable to change if PORT is taken.
free_port() {
	port_open "$1" && die "127.0.0.1:$1 ($2) is in use by another process; choose another port with $3"
	return 0
}

# A stable random secret per NAME, kept in the state folder (mode 0600).
secret() {
	local file=$STATE/$1.secret
	if [[ ! -s $file ]]; then
		(umask 077 && head -c 24 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' >"$file")
	fi
	cat "$file"
}

# json_field FILE FIELD: one top-level string field of a JSON file.
json_field() { php -r '$d = json_decode(file_get_contents($argv[1]), true); echo $d[$argv[2]] ?? "";' "$1" "$2"; }
