# MariaDB for the harness alone: its own datadir, socket, PID file and port under $BASE, bound to
# 127.0.0.1. Debian's own mariadb service (if apt started one) is never used or touched.

sql() { timeout 60 mariadb --no-defaults --user=root --socket="$RUN/mysqld.sock" "$@"; }

db_alive() { timeout 5 mariadb-admin --no-defaults --user=root --socket="$RUN/mysqld.sock" ping >/dev/null 2>&1; }

db_start() {
	local datadir=$BASE/mysql
	if [[ ! -d $datadir/mysql ]]; then
		say "creating the MariaDB datadir"
		rm -rf "$datadir" && mkdir -p "$datadir"
		timeout 120 mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$datadir" \
			--auth-root-authentication-method=socket --skip-test-db >"$LOGS/mariadb-install.log" 2>&1 ||
			die "mariadb-install-db failed (see $LOGS/mariadb-install.log)"
	fi
	if ! owned "$RUN/mysqld.pid" "$datadir"; then
		free_port "$DB_PORT" MariaDB SVC_REAL_DB_PORT
		say "starting MariaDB on 127.0.0.1:$DB_PORT"
		rm -f "$RUN/mysqld.pid"
		setsid mariadbd --no-defaults --user="$(id -un)" --datadir="$datadir" --port="$DB_PORT" \
			--bind-address=127.0.0.1 --socket="$RUN/mysqld.sock" --pid-file="$RUN/mysqld.pid" \
			--log-error="$LOGS/mariadb.err" --skip-name-resolve --innodb-buffer-pool-size="$DB_BUFFER_POOL" \
			--max-connections=300 </dev/null >/dev/null 2>&1 &
		within 60 db_alive || die "MariaDB did not answer within 60 s (see $LOGS/mariadb.err)"
	fi
	local password
	password=$(secret database)
	# On standard input, not -e: the password never shows in the process list.
	sql <<<"CREATE USER IF NOT EXISTS 'wp'@'127.0.0.1' IDENTIFIED BY '$password';
		ALTER USER 'wp'@'127.0.0.1' IDENTIFIED BY '$password';
		GRANT ALL PRIVILEGES ON \`site\\_%\`.* TO 'wp'@'127.0.0.1';"
}

db_stop() { stop_owned "$RUN/mysqld.pid" "$BASE/mysql" single; }
