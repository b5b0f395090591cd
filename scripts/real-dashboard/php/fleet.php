<?php
/**
 * The fleet-size option: dashboard sites that exist only in MainWP's own tables, each a copy of
 * site 1 (a synced child) with its own name and URL and about six pending updates (site 1's own
 * plus two plugins that exist nowhere). Reads see them as any other site; writes to them fail,
 * since no child answers at their address (http://fleet-NNNNN.invalid/).
 *
 * svc_real_fleet( COUNT ) makes the number of such sites exactly COUNT (adds or deletes).
 */

const SVC_REAL_FLEET_HOST = '.invalid';

function svc_real_fleet( int $count ) {
	global $wpdb;
	$sites    = $wpdb->prefix . 'mainwp_wp';
	$template = $wpdb->get_row( "SELECT * FROM $sites WHERE id = (SELECT MIN(id) FROM $sites)", ARRAY_A ); // phpcs:ignore
	if ( ! $template || str_contains( $template['url'], SVC_REAL_FLEET_HOST ) ) {
		wpctl_fail( 'the fleet needs a synced child as the first dashboard site' );
	}
	$existing = array_map( 'intval', $wpdb->get_col( "SELECT id FROM $sites WHERE url LIKE '%.invalid/' ORDER BY id" ) ); // phpcs:ignore
	if ( count( $existing ) > $count ) {
		svc_real_fleet_delete( array_slice( $existing, $count ) );
	}
	$have = min( count( $existing ), $count );
	for ( $from = $have + 1; $from <= $count; $from += 500 ) {
		svc_real_fleet_add( $template, $from, min( $count, $from + 499 ) );
	}
	$total = (int) $wpdb->get_var( "SELECT COUNT(*) FROM $sites" ); // phpcs:ignore
	return array( 'fleet' => $count, 'sites' => $total );
}

function svc_real_fleet_delete( array $ids ) {
	global $wpdb;
	foreach ( array_chunk( $ids, 500 ) as $chunk ) {
		$list = implode( ',', array_map( 'intval', $chunk ) );
		foreach ( array( 'mainwp_wp' => 'id', 'mainwp_wp_sync' => 'wpid', 'mainwp_wp_options' => 'wpid' ) as $table => $key ) {
			$wpdb->query( "DELETE FROM {$wpdb->prefix}$table WHERE $key IN ($list)" ); // phpcs:ignore
		}
	}
}

/** Sites number FROM..TO of the fleet, with their sync and option rows. */
function svc_real_fleet_add( array $template, int $from, int $to ) {
	global $wpdb;
	$rows = array();
	for ( $n = $from; $n <= $to; $n++ ) {
		$row                    = $template;
		$label                  = sprintf( 'fleet-%05d', $n );
		$row['name']            = $label;
		$row['url']             = "http://$label" . SVC_REAL_FLEET_HOST . '/';
		$row['siteurl']         = $row['url'];
		$row['plugin_upgrades'] = svc_real_fleet_plugins( (string) $template['plugin_upgrades'], $n );
		$row['ignored_plugins'] = '';
		$row['ignored_themes']  = '';
		unset( $row['id'] );
		$rows[] = $row;
	}
	$first = svc_real_fleet_insert( $wpdb->prefix . 'mainwp_wp', $rows );
	$ids   = range( $first, $first + count( $rows ) - 1 );
	foreach ( array( 'mainwp_wp_sync' => 'sync_id', 'mainwp_wp_options' => 'opt_id' ) as $table => $key ) {
		$copies = $wpdb->get_results( $wpdb->prepare( "SELECT * FROM {$wpdb->prefix}$table WHERE wpid = %d", $template['id'] ), ARRAY_A ); // phpcs:ignore
		$new    = array();
		foreach ( $ids as $id ) {
			foreach ( $copies as $copy ) {
				unset( $copy[ $key ] );
				$copy['wpid'] = $id;
				$new[]        = $copy;
			}
		}
		if ( $new ) {
			svc_real_fleet_insert( $wpdb->prefix . $table, $new );
		}
	}
}

/** The template's pending plugin updates plus two that only the fleet has (versions vary by site). */
function svc_real_fleet_plugins( string $json, int $n ) {
	$updates = json_decode( $json, true );
	if ( ! is_array( $updates ) || ! $updates ) {
		return $json;
	}
	$model = reset( $updates );
	foreach ( array( 'fleet-alpha', 'fleet-beta' ) as $slug ) {
		$entry = $model;
		$entry['Name'] = ucwords( str_replace( '-', ' ', $slug ) );
		if ( isset( $entry['update']['slug'] ) ) {
			$entry['update']['slug']        = $slug;
			$entry['update']['plugin']      = "$slug/$slug.php";
			$entry['update']['new_version'] = '2.' . ( $n % 7 ) . '.0';
		}
		$entry['Version']             = '1.0.0';
		$updates[ "$slug/$slug.php" ] = $entry;
	}
	return wp_json_encode( $updates );
}

/** A multi-row INSERT; returns the first new id (consecutive under InnoDB's default lock mode for one statement). */
function svc_real_fleet_insert( string $table, array $rows ) {
	global $wpdb;
	$columns = array_keys( $rows[0] );
	$values  = array();
	foreach ( $rows as $row ) {
		$values[] = "('" . implode( "','", array_map( static fn( $v ) => esc_sql( (string) $v ), array_values( $row ) ) ) . "')";
	}
	$sql = "INSERT INTO $table (`" . implode( '`,`', $columns ) . '`) VALUES ' . implode( ',', $values );
	if ( false === $wpdb->query( $sql ) ) { // phpcs:ignore
		wpctl_fail( "insert into $table failed: " . $wpdb->last_error );
	}
	return (int) $wpdb->insert_id;
}
