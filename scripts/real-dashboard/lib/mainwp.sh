# The dashboard side: credentials, connected children, pending updates, and the switches the
# conformance suite uses (abilities mode, UI ignores, the poisoned ignore).

credentials() {
	wpctl dash mainwp-tables >/dev/null || die "MainWP's table installer failed"
	wpctl dash app-password "$STATE/app-password.json" >/dev/null || die "no application password"
	wpctl dash rest-key "$STATE/rest-key.json" >/dev/null || die "no MainWP REST API key"
}

# v2 METHOD PATH [curl args]: MainWP REST API v2 with the harness's key (Basic ck:cs). The key
# reaches curl as a config on its standard input, never as an argument (ps shows arguments).
v2() {
	local method=$1 path=$2
	shift 2
	curl -sS --max-time "${V2_TIMEOUT:-120}" --config - \
		-X "$method" "$(site_url dash)/wp-json/mainwp/v2/$path" "$@" <<<"user = \"$(json_field "$STATE/rest-key.json" consumer_key):$(json_field "$STATE/rest-key.json" consumer_secret)\""
}

connect_children() {
	local known name url answer
	known=$(v2 GET 'sites?per_page=100&fields=url' | tr -d '\\')
	for name in $(child_names); do
		url=$(site_url "$name")/
		grep -qF "\"$url\"" <<<"$known" && continue
		wpctl "$name" child-prepare >/dev/null
		say "connecting $name"
		# MainWP Child 6.1 checks the child admin's password when a dashboard adds it.
		secret "$name-admin" >/dev/null
		answer=$(v2 POST sites/add --data-urlencode "url=$url" --data-urlencode "name=$name" \
			--data-urlencode admin=admin --data-urlencode "adminpassword@$STATE/$name-admin.secret")
		grep -q '"success":1' <<<"$answer" || die "the dashboard did not add $name: $(head -c 300 <<<"$answer")"
	done
}

# Real plugin and theme packages from WordPress's own tree with a raised version: akismet and
# twentytwentyone by a patch, hello-dolly and twentytwentyfive by a major version.
build_packages() {
	local work item source file how top version
	[[ -s $PKGS/versions.json ]] && return 0
	work=$(mktemp -d "$BASE/packages.XXXXXX")
	{
		echo '{'
		for item in akismet:plugins/akismet:akismet.php:patch hello-dolly:plugins/hello.php:hello.php:major \
			twentytwentyone:themes/twentytwentyone:style.css:patch twentytwentyfive:themes/twentytwentyfive:style.css:major; do
			IFS=: read -r top source file how <<<"$item"
			mkdir -p "$work/$top"
			if [[ -d $SRC/wordpress/wp-content/$source ]]; then cp -a "$SRC/wordpress/wp-content/$source/." "$work/$top/"
			else cp "$SRC/wordpress/wp-content/$source" "$work/$top/"; fi
			version=$(php "$HERE/php/bump.php" "$work/$top/$file" "$how") || die "cannot raise the version of $top"
			timeout 120 php "$HERE/php/zip.php" "$PKGS/$top.zip" "$work/$top" || die "cannot zip $top"
			printf '"%s":"%s",\n' "$top" "$version"
		done
		echo '"built":"1"}'
	} >"$PKGS/versions.json.tmp"
	mv "$PKGS/versions.json.tmp" "$PKGS/versions.json"
	rm -rf "$work"
}

# Child i announces: akismet and twentytwentyone everywhere, hello-dolly on odd children,
# twentytwentyfive where i mod 3 is not 0 (so the plans differ per site).
announce_updates() {
	local name i url spec
	build_packages
	for name in $(child_names); do
		i=${name#child}
		url=$(site_url "$name")/svc-real-packages
		mkdir -p "$SITES/$name/svc-real-packages"
		cp -u "$PKGS"/*.zip "$SITES/$name/svc-real-packages/"
		spec="{\"plugins\":{$(offer akismet/akismet.php akismet "$url")"
		((i % 2 == 1)) && spec+=",$(offer hello.php hello-dolly "$url")"
		spec+="},\"themes\":{$(offer twentytwentyone twentytwentyone "$url")"
		((i % 3 != 0)) && spec+=",$(offer twentytwentyfive twentytwentyfive "$url")"
		spec+='}}'
		echo "$spec" >"$STATE/updates-$name.json"
		wpctl "$name" announce "$STATE/updates-$name.json" >"$STATE/announced-$name.json" || die "announcing updates on $name failed"
	done
}
offer() {
	printf '"%s":{"slug":"%s","version":"%s","package":"%s/%s.zip"}' "$1" "$2" "$(json_field "$PKGS/versions.json" "$2")" "$3" "$2"
}

sync_dashboard() {
	say "syncing the dashboard with its children"
	V2_TIMEOUT=300 v2 POST sites/sync >"$STATE/sync.json" || die "the sync request failed"
}

abilities_mode() {
	local file=$SITES/dash/wp-content/svc-real-abilities
	case $1 in
		on) rm -f "$file" ;;
		hidden | unregistered) echo "$1" >"$file" ;;
		*) die "abilities on|hidden|unregistered" ;;
	esac
	say "abilities: $1 (from the next request on)"
}

# The REST v2 per-slug ignore that MainWP 6.1.2 stores under slug 0 (see wpctl-commands.php).
poison_ignore() {
	[[ $1 =~ ^[0-9]+$ ]] || die "poison-ignore SITE_ID"
	v2 POST "updates/$1/ignore/plugins" --data-urlencode 'slug=akismet/akismet.php' >/dev/null
}

print_env() {
	[[ -s $STATE/rest-key.json ]] || die "no dashboard at $BASE yet (run: $0 up)"
	printf 'export SVC_URL=%q\n' "$(site_url dash)"
	printf 'export SVC_USER=%q\n' "$(json_field "$STATE/app-password.json" user)"
	printf 'export SVC_APP_PASSWORD=%q\n' "$(json_field "$STATE/app-password.json" password)"
	printf 'export SVC_TOKEN=%q\n' "$(json_field "$STATE/rest-key.json" token)"
	printf 'export SVC_ALLOW_HTTP=true\n'
}

# The starting point of the conformance suite again: the children's packages back at WordPress's
# own versions, no ignores anywhere (per site, site-wide flags, global), the abilities on, the
# fake updates announced and synced. Sites and credentials stay.
restore() {
	local name content
	for name in $(child_names); do
		content=$SITES/$name/wp-content
		rm -rf "$content/plugins/akismet" "$content/plugins/hello-dolly" "$content/plugins/hello.php" \
			"$content/themes/twentytwentyone" "$content/themes/twentytwentyfive"
		cp -a "$SRC/wordpress/wp-content/plugins/akismet" "$SRC/wordpress/wp-content/plugins/hello.php" "$content/plugins/"
		cp -a "$SRC/wordpress/wp-content/themes/twentytwentyone" "$SRC/wordpress/wp-content/themes/twentytwentyfive" "$content/themes/"
	done
	sql site_dash -e "UPDATE wp_mainwp_wp SET ignored_plugins = '', ignored_themes = '', is_ignoreCoreUpdates = 0,
		is_ignorePluginUpdates = 0, is_ignoreThemeUpdates = 0; UPDATE wp_mainwp_users SET ignored_plugins = '', ignored_themes = ''"
	abilities_mode on
	announce_updates
	sync_dashboard
}
