#!/usr/bin/env bash
# A real MainWP dashboard on loopback for svc-gitops's conformance suite (see README.md here).
#
#   real-dashboard.sh up                 set up and start everything (idempotent)
#   real-dashboard.sh check              exit 3 with one line when packages or release archives are missing
#   real-dashboard.sh env                the SVC_* lines for svc-gitops:  eval "$(real-dashboard.sh env)"
#   real-dashboard.sh status             processes, ports, sites
#   real-dashboard.sh updates            announce the fake updates again and sync the dashboard
#   real-dashboard.sh restore            back to the start: original packages, no ignores, abilities on, synced
#   real-dashboard.sh abilities on|hidden|unregistered
#   real-dashboard.sh ui-ignores SITE_ID     a global theme ignore and SITE_ID's akismet, as the UI sets them
#   real-dashboard.sh poison-ignore SITE_ID  MainWP 6.1.2's slug-0 ignore entry, made through REST v2
#   real-dashboard.sh unpoison SITE_ID       remove it again
#   real-dashboard.sh fleet COUNT        COUNT extra sites in the dashboard's tables (0 removes them)
#   real-dashboard.sh packages           install the Debian packages (root)
#   real-dashboard.sh down               stop what this script started, by PID
#   real-dashboard.sh reset              down, then delete sites, databases and state (keeps src/)
set -Eeuo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# shellcheck source=lib/common.sh
. "$HERE/lib/common.sh"
. "$HERE/lib/database.sh"
. "$HERE/lib/sites.sh"
. "$HERE/lib/mainwp.sh"

default_sources() {
	# ../shared beside the checkout; for a git worktree, also beside the main checkout.
	local common
	[[ -d $ROOT/../shared/real-dashboard ]] && { echo "$ROOT/../shared/real-dashboard"; return; }
	common=$(git -C "$ROOT" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	echo "${common:+$(dirname "$common")/../shared/real-dashboard}"
}
SOURCES=${SVC_REAL_SOURCES:-$(default_sources)}
BASE=${SVC_REAL_BASE:-${XDG_CACHE_HOME:-$HOME/.cache}/svc-gitops-real-dashboard}
DB_PORT=${SVC_REAL_DB_PORT:-3317}
DASH_PORT=${SVC_REAL_PORT:-8180}
CHILDREN=${SVC_REAL_CHILDREN:-3}
DB_BUFFER_POOL=${SVC_REAL_DB_BUFFER_POOL:-256M}
DASH_WORKERS=8
CHILD_WORKERS=4
SRC=$BASE/src RUN=$BASE/run LOGS=$BASE/logs STATE=$BASE/state SITES=$BASE/sites PKGS=$BASE/packages
PACKAGES="php-cli php-mysql php-curl php-xml php-mbstring php-zip php-gd mariadb-server"

missing_packages() {
	local tool module missing=()
	for tool in php mariadbd mariadb mariadb-install-db mariadb-admin curl tar xz setsid timeout; do
		command -v "$tool" >/dev/null || missing+=("$tool")
	done
	if command -v php >/dev/null; then
		local modules
		modules=$(php -m)
		for module in mysqli curl xml mbstring zip gd openssl; do
			grep -qix "$module" <<<"$modules" || missing+=("php-$module")
		done
	fi
	echo "${missing[*]}"
}

install_packages() {
	[[ -z $(missing_packages) ]] && return 0
	[[ $(id -u) == 0 ]] || die "installing packages needs root: apt-get install -y $PACKAGES"
	timeout 300 apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends $PACKAGES
}

up() {
	local started=$SECONDS missing name
	missing=$(missing_packages)
	[[ -z $missing ]] || die "missing: $missing (run: $0 packages)"
	[[ -n $SOURCES && -d $SOURCES ]] || die "no release tarballs (set SVC_REAL_SOURCES)"
	mkdir -p "$SRC" "$RUN" "$LOGS" "$STATE" "$SITES" "$PKGS"
	chmod 700 "$STATE"
	unpack_sources
	db_start
	make_site dash mainwp
	for name in $(child_names); do make_site "$name" mainwp-child; done
	serve dash "$DASH_WORKERS"
	for name in $(child_names); do serve "$name" "$CHILD_WORKERS"; done
	credentials
	connect_children
	announce_updates
	sync_dashboard
	say "ready in $((SECONDS - started)) s: $(site_url dash) with $CHILDREN children"
}

status() {
	local file name word
	echo "base: $BASE"
	for file in "$RUN"/*.pid; do
		[[ -e $file ]] || continue
		name=$(basename "$file" .pid)
		[[ $name == mysqld ]] && word=$BASE/mysql || word=127.0.0.1:$(site_port "$name")
		printf '%-8s pid %-8s %s\n' "$name" "$(<"$file")" "$(owned "$file" "$word" && echo running || echo stopped)"
	done
	owned "$RUN/dash.pid" "127.0.0.1:$DASH_PORT" || return 0
	echo "abilities: $(cat "$SITES/dash/wp-content/svc-real-abilities" 2>/dev/null || echo on)"
	echo "sites: $(v2 GET 'sites?per_page=1' | php -r 'echo json_decode(stream_get_contents(STDIN), true)["total"] ?? "?";')"
}

# Exit 0 when `up` can run here; otherwise one line saying what is missing, exit 3.
check() {
	local missing name
	missing=$(missing_packages)
	[[ -z $missing ]] || { echo "missing Debian packages ($missing): $0 packages"; exit 3; }
	[[ -n $SOURCES && -d $SOURCES ]] || { echo "no release archives: set SVC_REAL_SOURCES (default ../shared/real-dashboard)"; exit 3; }
	for name in wordpress mainwp mainwp-child; do
		[[ -n $(find_archive "$name") ]] || { echo "no $name release in $SOURCES"; exit 3; }
	done
}

running() { owned "$RUN/dash.pid" "127.0.0.1:$DASH_PORT" || die "the dashboard is not running ($0 up)"; }

case ${1:-up} in
	up) up ;;
	check) check ;;
	env) print_env ;;
	status) status ;;
	updates) running && announce_updates && sync_dashboard ;;
	restore) running && restore ;;
	abilities) running && abilities_mode "${2:-}" ;;
	ui-ignores) running && wpctl dash ui-ignores "${2:?ui-ignores SITE_ID}" ;;
	poison-ignore) running && poison_ignore "${2:-}" ;;
	unpoison) running && wpctl dash unpoison "${2:?unpoison SITE_ID}" ;;
	fleet) running && wpctl dash fleet "${2:?fleet COUNT}" ;;
	packages) install_packages ;;
	down) stop_servers && db_stop ;;
	reset) stop_servers && db_stop && rm -rf "$SITES" "$BASE/mysql" "$STATE" "$PKGS" "$RUN" ;;
	*) sed -n 's/^#   //p' "$0" >&2 && exit 2 ;;
esac
