<?php
// php zip.php OUT.zip DIR: a zip whose single top folder is DIR's base name (what WordPress's
// upgrader expects of a plugin or theme package). Written to a temporary name, then renamed.
[, $out, $dir] = $argv;
$dir  = rtrim( (string) realpath( $dir ), '/' );
$top  = basename( $dir );
$zip  = new ZipArchive();
$tmp  = $out . '.part';
if ( true !== $zip->open( $tmp, ZipArchive::CREATE | ZipArchive::OVERWRITE ) ) {
	fwrite( STDERR, "zip.php: cannot write $out\n" );
	exit( 1 );
}
$zip->addEmptyDir( $top );
$files = new RecursiveIteratorIterator(
	new RecursiveDirectoryIterator( $dir, FilesystemIterator::SKIP_DOTS ),
	RecursiveIteratorIterator::SELF_FIRST
);
foreach ( $files as $entry ) {
	$name = $top . substr( $entry->getPathname(), strlen( $dir ) );
	if ( $entry->isDir() ) {
		$zip->addEmptyDir( $name );
	} else {
		$zip->addFile( $entry->getPathname(), $name );
	}
}
exit( $zip->close() && rename( $tmp, $out ) ? 0 : 1 );
