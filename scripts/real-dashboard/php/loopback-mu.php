<?php
/**
 * Plugin Name: svc-gitops real-dashboard harness
 * Description: Loopback only; fake pending updates from the option svc_real_updates; the abilities switch.
 *
 * Installed as a must-use plugin on the dashboard and on every child by scripts/real-dashboard.
 */

// The machine has no internet: a request to any other host fails at once instead of waiting on DNS.
add_filter(
	'pre_http_request',
	static function ( $preempt, $args, $url ) {
		$host = strtolower( (string) wp_parse_url( $url, PHP_URL_HOST ) );
		if ( in_array( $host, array( '127.0.0.1', 'localhost', '::1', '[::1]' ), true ) ) {
			return $preempt;
		}
		return new WP_Error( 'svc_real_offline', "harness: no requests leave loopback ($host)" );
	},
	1,
	3
);

// Package downloads use wp_safe_remote_get(), which refuses loopback hosts and ports other than
// 80/443/8080. The children serve their own update zips from their own port.
add_filter(
	'http_request_host_is_external',
	static function ( $external, $host ) {
		return $external || in_array( $host, array( '127.0.0.1', 'localhost' ), true );
	},
	10,
	2
);
add_filter(
	'http_allowed_safe_ports',
	static function ( $ports ) {
		$port = (int) wp_parse_url( home_url(), PHP_URL_PORT );
		return $port > 0 ? array_merge( (array) $ports, array( $port ) ) : $ports;
	}
);

add_filter( 'pre_wp_mail', '__return_true' );
add_filter( 'automatic_updater_disabled', '__return_true' );
add_filter( 'auto_update_plugin', '__return_false' );
add_filter( 'auto_update_theme', '__return_false' );

/**
 * The pending updates this site announces: for each item of the option svc_real_updates whose
 * installed version is older than the announced one, an entry in the update transient. Applied on
 * every read, so WordPress's own (failing, offline) update checks never wipe them, and an item
 * really installed at the new version stops being announced.
 */
function svc_real_announce( $transient, $kind ) {
	$wanted = get_option( 'svc_real_updates' );
	if ( ! is_array( $wanted ) || empty( $wanted[ $kind ] ) ) {
		return $transient;
	}
	if ( ! is_object( $transient ) ) {
		$transient = new stdClass();
	}
	foreach ( array( 'checked', 'response', 'no_update', 'translations' ) as $field ) {
		if ( ! isset( $transient->$field ) || ! is_array( $transient->$field ) ) {
			$transient->$field = array();
		}
	}
	$installed = svc_real_installed_versions( $kind );
	foreach ( $wanted[ $kind ] as $id => $offer ) {
		if ( ! isset( $installed[ $id ] ) ) {
			continue;
		}
		$transient->checked[ $id ] = $installed[ $id ];
		if ( ! version_compare( $offer['version'], $installed[ $id ], '>' ) ) {
			unset( $transient->response[ $id ] );
			continue;
		}
		$entry = array(
			'new_version'  => $offer['version'],
			'package'      => $offer['package'],
			'url'          => home_url( '/' ),
			'requires'     => '5.0',
			'requires_php' => '7.4',
			'tested'       => '6.9',
		);
		if ( 'plugins' === $kind ) {
			$entry['slug']          = $offer['slug'];
			$entry['plugin']        = $id;
			$entry['id']            = 'w.org/plugins/' . $offer['slug'];
			$entry['icons']         = array();
			$entry['banners']       = array();
			$entry['compatibility'] = new stdClass();
			$transient->response[ $id ] = (object) $entry;
		} else {
			$transient->response[ $id ] = array( 'theme' => $id ) + $entry;
		}
		unset( $transient->no_update[ $id ] );
	}
	$transient->last_checked = time();
	return $transient;
}

function svc_real_installed_versions( $kind ) {
	$versions = array();
	if ( 'plugins' === $kind ) {
		if ( ! function_exists( 'get_plugins' ) ) {
			require_once ABSPATH . 'wp-admin/includes/plugin.php';
		}
		foreach ( get_plugins() as $file => $data ) {
			$versions[ $file ] = $data['Version'];
		}
		return $versions;
	}
	foreach ( wp_get_themes() as $stylesheet => $theme ) {
		$versions[ $stylesheet ] = $theme->get( 'Version' );
	}
	return $versions;
}

add_filter( 'site_transient_update_plugins', static fn( $t ) => svc_real_announce( $t, 'plugins' ), 999 );
add_filter( 'site_transient_update_themes', static fn( $t ) => svc_real_announce( $t, 'themes' ), 999 );

/*
 * The abilities switch (`real-dashboard.sh abilities hidden|unregistered|on`), read from
 * wp-content/svc-real-abilities on every request:
 *   hidden        the /wp-abilities/ REST routes are gone, MainWP's abilities stay registered
 *                 (a security plugin or proxy blocking the routes);
 *   unregistered  MainWP's abilities are unregistered too (MainWP's code path before WordPress 6.9).
 */
$svc_real_mode_file = WP_CONTENT_DIR . '/svc-real-abilities';
$svc_real_mode      = is_file( $svc_real_mode_file ) ? trim( (string) file_get_contents( $svc_real_mode_file ) ) : 'on';
if ( 'hidden' === $svc_real_mode || 'unregistered' === $svc_real_mode ) {
	add_filter(
		'rest_endpoints',
		static function ( $endpoints ) {
			return array_filter(
				$endpoints,
				static fn( $route ) => ! str_starts_with( $route, '/wp-abilities/' ),
				ARRAY_FILTER_USE_KEY
			);
		}
	);
}
if ( 'unregistered' === $svc_real_mode ) {
	add_action(
		'wp_abilities_api_init',
		static function () {
			foreach ( wp_get_abilities() as $ability ) {
				if ( str_starts_with( $ability->get_name(), 'mainwp/' ) ) {
					wp_unregister_ability( $ability->get_name() );
				}
			}
		},
		PHP_INT_MAX
	);
}
