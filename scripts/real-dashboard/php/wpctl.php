<?php
/**
 * wpctl.php — the harness's way into one WordPress install, without WP-CLI.
 *
 *   php wpctl.php DOCROOT COMMAND [ARGS...]
 *
 * Every command is idempotent, prints one JSON line on success and exits 1 with a message on
 * stderr otherwise. Credentials go to files (mode 0600), never to stdout.
 *
 *   install URL TITLE USER PASSWORD_FILE EMAIL   install WordPress unless installed; pretty permalinks
 *   activate PLUGIN_FILE                     activate a plugin as user 1
 *   mainwp-tables                            MainWP's table installer; skips its first-run wizard
 *   app-password FILE                        an application password for user 1 (kept while valid)
 *   rest-key FILE                            a MainWP REST API key, read_write (kept while enabled)
 *   child-prepare                            no unique security id: the dashboard adds it by password
 *   announce FILE                            the pending updates to announce (JSON, see loopback-mu.php)
 *   ui-ignores SITE_ID                       ignores as the UI sets them: global theme, per-site plugin
 *   unpoison SITE_ID                         remove ignore entries stored under a numeric slug
 *   fleet COUNT                              extra dashboard sites copied from site 1 (see fleet.php)
 */
if ( PHP_SAPI !== 'cli' ) {
	exit( 1 );
}
$docroot = rtrim( (string) realpath( $argv[1] ?? '' ), '/' );
$command = $argv[2] ?? '';
$args    = array_slice( $argv, 3 );
if ( ! is_file( "$docroot/wp-load.php" ) ) {
	fwrite( STDERR, "wpctl: no WordPress at {$argv[1]}\n" );
	exit( 1 );
}

function wpctl_done( array $result ) {
	echo json_encode( $result, JSON_UNESCAPED_SLASHES ), "\n";
	exit( 0 );
}
function wpctl_fail( string $message ) {
	fwrite( STDERR, "wpctl: $message\n" );
	exit( 1 );
}
function wpctl_secret_file( string $file, array $data ) {
	$old = umask( 077 );
	file_put_contents( $file, json_encode( $data, JSON_UNESCAPED_SLASHES ) );
	umask( $old );
	chmod( $file, 0600 );
}

// WordPress builds URLs from the request even on the command line: pretend a loopback request
// to the site's own host and port (its WP_HOME in wp-config.php).
if ( preg_match( "#define\\(\\s*'WP_HOME',\\s*'http://([^']+)'#", (string) file_get_contents( "$docroot/wp-config.php" ), $m ) ) {
	$_SERVER['HTTP_HOST'] = $m[1];
}
$_SERVER += array(
	'SERVER_NAME'     => '127.0.0.1',
	'REQUEST_METHOD'  => 'GET',
	'REQUEST_URI'     => '/',
	'SERVER_PROTOCOL' => 'HTTP/1.1',
	'REMOTE_ADDR'     => '127.0.0.1',
);
if ( 'install' === $command ) {
	define( 'WP_INSTALLING', true );
}
chdir( $docroot );
require "$docroot/wp-load.php";
require_once ABSPATH . 'wp-admin/includes/plugin.php';
if ( 'install' !== $command ) {
	wp_set_current_user( 1 );
	$GLOBALS['current_user'] = wp_get_current_user();
}
require __DIR__ . '/wpctl-commands.php';
wpctl_run( $command, $args );
