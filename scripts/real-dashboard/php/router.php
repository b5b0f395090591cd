<?php
/*
 * Front controller for `php -S`: existing files (and folders with an index.php) are served by the
 * built-in server itself; every other path goes through WordPress's index.php, so /wp-json/ routes
 * and pretty permalinks resolve. Each routed request appends "time method uri status ms" to the
 * site's request log (the built-in server logs nothing useful for routed requests).
 */
$docroot = rtrim( $_SERVER['DOCUMENT_ROOT'], '/' );
$started = microtime( true );
$request_log = getenv( 'REAL_REQUEST_LOG' );
if ( $request_log ) {
	register_shutdown_function(
		static function () use ( $request_log, $started ) {
			$line = sprintf(
				"%s %s %s %d %dms\n",
				gmdate( 'H:i:s' ),
				$_SERVER['REQUEST_METHOD'],
				$_SERVER['REQUEST_URI'],
				http_response_code(),
				( microtime( true ) - $started ) * 1000
			);
			@file_put_contents( $request_log, $line, FILE_APPEND | LOCK_EX );
		}
	);
}
$path = rawurldecode( (string) parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) );
$file = $docroot . $path;
$static = ! str_contains( $path, '..' ) && file_exists( $file )
	&& ( is_file( $file ) || is_file( rtrim( $file, '/' ) . '/index.php' ) );
if ( $static ) {
	return false;
}
$_SERVER['SCRIPT_NAME']     = '/index.php';
$_SERVER['PHP_SELF']        = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $docroot . '/index.php';
chdir( $docroot );
require $docroot . '/index.php';
