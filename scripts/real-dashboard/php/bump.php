<?php
// php bump.php FILE patch|major: raise the "Version:" header of a plugin file or theme style.css
// in place (patch: last number + 1; major: first number + 1, rest .0.0); prints the new version.
[, $file, $how] = $argv;
$text = (string) file_get_contents( $file );
if ( ! preg_match( '/^([ \t\/*#@]*Version:[ \t]*)([0-9][0-9.]*)/mi', $text, $m, PREG_OFFSET_CAPTURE ) ) {
	fwrite( STDERR, "bump.php: no Version header in $file\n" );
	exit( 1 );
}
$parts = array_map( 'intval', explode( '.', rtrim( $m[2][0], '.' ) ) );
while ( count( $parts ) < 3 ) {
	$parts[] = 0;
}
if ( 'major' === $how ) {
	$parts = array( $parts[0] + 1, 0, 0 );
} else {
	$parts[ count( $parts ) - 1 ]++;
}
$version = implode( '.', $parts );
$text    = substr_replace( $text, $m[1][0] . $version, $m[1][1], strlen( $m[1][0] ) + strlen( $m[2][0] ) );
file_put_contents( $file, $text );
echo $version, "\n";
