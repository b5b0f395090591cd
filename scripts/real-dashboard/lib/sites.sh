# WordPress sites: "dash" (the MainWP dashboard) and child1..childN (MainWP Child), each laid out
# under $BASE/sites/NAME, with its own database site_NAME, served by `php -S` on its own port.

site_names() {
	local i
	echo dash
	for ((i = 1; i <= CHILDREN; i++)); do echo "child$i"; done
}
child_names() { site_names | tail -n +2; }
site_port() { if [[ $1 == dash ]]; then echo "$DASH_PORT"; else echo $((DASH_PORT + ${1#child})); fi; }
site_url() { echo "http://127.0.0.1:$(site_port "$1")"; }

wpctl() {
	local site=$1
	shift
	timeout 180 php -d display_errors=stderr -d memory_limit=1G "$HERE/php/wpctl.php" "$SITES/$site" "$@"
}

# The unpacked releases under $BASE/src, unpacked again only when an archive changes. Accepted:
# the .tar.xz files of ../shared/real-dashboard and the official downloads (.tar.gz, .zip;
# wordpress.org names plugin zips mainwp.6.1.2.zip, mainwp-child.6.1.zip).
unpack_sources() {
	local name archive stamp
	for name in wordpress mainwp mainwp-child; do
		archive=$(find_archive "$name")
		[[ -n $archive ]] || die "no $name release (tar.xz, tar.gz or zip) in $SOURCES (set SVC_REAL_SOURCES)"
		stamp="$(basename "$archive") $(stat -c '%s %Y' "$archive")"
		[[ -f $SRC/$name.stamp && $(<"$SRC/$name.stamp") == "$stamp" ]] && continue
		say "unpacking $(basename "$archive")"
		rm -rf "${SRC:?}/$name" "$SRC/$name.tmp" && mkdir -p "$SRC/$name.tmp"
		if [[ $archive == *.zip ]]; then
			timeout 300 php -r '$z = new ZipArchive(); exit($z->open($argv[1]) === true && $z->extractTo($argv[2]) ? 0 : 1);' \
				"$archive" "$SRC/$name.tmp" || die "cannot unpack $archive"
		else
			timeout 300 tar -xf "$archive" -C "$SRC/$name.tmp" --no-same-owner || die "cannot unpack $archive"
		fi
		[[ -d $SRC/$name.tmp/$name ]] || die "$archive has no top folder $name/"
		mv "$SRC/$name.tmp/$name" "$SRC/$name" && rmdir "$SRC/$name.tmp"
		echo "$stamp" >"$SRC/$name.stamp"
	done
	local version
	version=$(sed -n "s/^\$wp_version = '\(.*\)';/\1/p" "$SRC/wordpress/wp-includes/version.php")
	php -r 'exit(version_compare($argv[1], "6.9", ">=") ? 0 : 1);' "$version" ||
		die "WordPress $version has no Abilities API (6.9 or later is needed)"
}

# find_archive NAME: the newest release archive of NAME in $SOURCES ("mainwp" never matches the child's).
find_archive() {
	local file
	for file in "$SOURCES"/*; do
		if [[ $(basename "$file") =~ ^$1[-.][0-9][0-9.]*(\.tar\.xz|\.tar\.gz|\.zip)$ ]]; then echo "$file"; fi
	done | sort -V | tail -1
}

# make_site NAME PLUGIN: files (core hard-linked, wp-content copied), database, wp-config.php,
# WordPress installed, PLUGIN (mainwp or mainwp-child) active.
make_site() {
	local name=$1 plugin=$2 dir=$SITES/$1
	if [[ ! -f $dir/wp-settings.php ]]; then
		say "laying out $name"
		rm -rf "$dir"
		cp -al "$SRC/wordpress" "$dir"
		rm -rf "$dir/wp-content" && cp -a "$SRC/wordpress/wp-content" "$dir/wp-content"
		cp -a "$SRC/$plugin" "$dir/wp-content/plugins/$plugin"
	fi
	mkdir -p "$dir/wp-content/mu-plugins" "$dir/wp-content/upgrade"
	cp "$HERE/php/loopback-mu.php" "$dir/wp-content/mu-plugins/svc-real.php"
	sql -e "CREATE DATABASE IF NOT EXISTS \`site_$name\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"
	[[ -f $dir/wp-config.php ]] || write_config "$name" >"$dir/wp-config.php"
	secret "$name-admin" >/dev/null
	wpctl "$name" install "$(site_url "$name")" "real $name" admin "$STATE/$name-admin.secret" "admin@$name.test" >/dev/null ||
		die "installing WordPress for $name failed"
	wpctl "$name" activate "$plugin/$plugin.php" >/dev/null || die "activating $plugin on $name failed"
}

write_config() {
	local name=$1 key
	echo "<?php"
	echo "// Written by scripts/real-dashboard for a loopback test site."
	echo "define( 'DB_NAME', 'site_$name' );"
	echo "define( 'DB_USER', 'wp' );"
	echo "define( 'DB_PASSWORD', '$(secret database)' );"
	echo "define( 'DB_HOST', '127.0.0.1:$DB_PORT' );"
	echo "define( 'DB_CHARSET', 'utf8mb4' );"
	echo "define( 'DB_COLLATE', '' );"
	for key in AUTH_KEY SECURE_AUTH_KEY LOGGED_IN_KEY NONCE_KEY AUTH_SALT SECURE_AUTH_SALT LOGGED_IN_SALT NONCE_SALT; do
		echo "define( '$key', '$(head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')' );"
	done
	echo "\$table_prefix = 'wp_';"
	echo "define( 'WP_HOME', '$(site_url "$name")' );"
	echo "define( 'WP_SITEURL', '$(site_url "$name")' );"
	# local: application passwords work over plain http.
	echo "define( 'WP_ENVIRONMENT_TYPE', 'local' );"
	echo "define( 'DISABLE_WP_CRON', true );"
	echo "define( 'AUTOMATIC_UPDATER_DISABLED', true );"
	echo "define( 'FS_METHOD', 'direct' );"
	echo "define( 'WP_DEBUG', true );"
	echo "define( 'WP_DEBUG_LOG', '$LOGS/$name-debug.log' );"
	echo "define( 'WP_DEBUG_DISPLAY', false );"
	echo "define( 'MAINWP_ALLOW_NOSSL_CONNECT', true );"
	echo "if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }"
	echo "require_once ABSPATH . 'wp-settings.php';"
}

site_answers() {
	[[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$(site_url "$1")/wp-json/") == 200 ]]
}

serve() {
	local name=$1 workers=$2 port
	port=$(site_port "$name")
	if ! owned "$RUN/$name.pid" "127.0.0.1:$port"; then
		free_port "$port" "$name" SVC_REAL_PORT
		say "serving $name on 127.0.0.1:$port"
		(
			cd "$SITES/$name" || exit 1
			export PHP_CLI_SERVER_WORKERS=$workers REAL_REQUEST_LOG=$LOGS/$name-requests.log
			exec setsid php -d display_errors=0 -d log_errors=1 -d memory_limit=1G -d max_execution_time=300 \
				-d post_max_size=64M -d upload_max_filesize=64M \
				-S "127.0.0.1:$port" -t "$SITES/$name" "$HERE/php/router.php" </dev/null >>"$LOGS/$name-server.log" 2>&1
		) &
		echo $! >"$RUN/$name.pid"
	fi
	within 30 site_answers "$name" || die "$name did not answer on 127.0.0.1:$port within 30 s (see $LOGS/$name-server.log)"
}

stop_servers() {
	local name
	for name in $(ls "$RUN" 2>/dev/null | sed -n 's/^\(dash\|child[0-9]*\)\.pid$/\1/p'); do
		stop_owned "$RUN/$name.pid" "127.0.0.1:$(site_port "$name")" group
	done
}
