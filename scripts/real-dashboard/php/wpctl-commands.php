<?php
/** The commands of wpctl.php (loaded once WordPress is). */

function wpctl_run( string $command, array $args ) {
	switch ( $command ) {
		case 'install':
			return wpctl_install( ...$args );
		case 'activate':
			return wpctl_activate( $args[0] ?? '' );
		case 'mainwp-tables':
			return wpctl_mainwp_tables();
		case 'app-password':
			return wpctl_app_password( $args[0] ?? '' );
		case 'rest-key':
			return wpctl_rest_key( $args[0] ?? '' );
		case 'child-prepare':
			delete_option( 'mainwp_child_uniqueId' );
			return wpctl_done( array( 'child' => 'password-auth' ) );
		case 'announce':
			return wpctl_announce( $args[0] ?? '' );
		case 'ui-ignores':
			return wpctl_ui_ignores( (int) ( $args[0] ?? 0 ) );
		case 'unpoison':
			return wpctl_unpoison( (int) ( $args[0] ?? 0 ) );
		case 'fleet':
			require __DIR__ . '/fleet.php';
			return wpctl_done( svc_real_fleet( (int) ( $args[0] ?? 0 ) ) );
	}
	wpctl_fail( "unknown command '$command'" );
}

/** $password_file: the admin password's file (mode 0600), so no password is a process argument. */
function wpctl_install( $url = '', $title = '', $user = '', $password_file = '', $email = '' ) {
	$password = is_readable( $password_file ) ? trim( (string) file_get_contents( $password_file ) ) : '';
	if ( '' === $password ) {
		wpctl_fail( 'install: no admin password in the file given' );
	}
	require_once ABSPATH . 'wp-admin/includes/upgrade.php';
	$state = 'kept';
	if ( ! is_blog_installed() ) {
		$result = wp_install( $title, $user, $email, true, '', wp_slash( $password ) );
		if ( is_wp_error( $result ) ) {
			wpctl_fail( $result->get_error_message() );
		}
		$state = 'installed';
	}
	update_option( 'permalink_structure', '/%postname%/' );
	// Rebuilt on the first web request, with the permalink structure above.
	delete_option( 'rewrite_rules' );
	wpctl_done( array( 'wordpress' => $state, 'version' => get_bloginfo( 'version' ), 'home' => home_url() ) );
}

function wpctl_activate( string $plugin ) {
	if ( ! is_plugin_active( $plugin ) ) {
		$result = activate_plugin( $plugin );
		if ( is_wp_error( $result ) ) {
			wpctl_fail( $result->get_error_message() );
		}
	}
	wpctl_done( array( 'active' => $plugin ) );
}

function wpctl_mainwp_tables() {
	if ( ! class_exists( '\MainWP\Dashboard\MainWP_Install' ) ) {
		wpctl_fail( 'MainWP is not active' );
	}
	\MainWP\Dashboard\MainWP_Install::instance()->install();
	update_option( 'mainwp_run_quick_setup', 'no' );
	wpctl_done( array( 'mainwp_db_version' => get_option( 'mainwp_db_version' ) ) );
}

function wpctl_app_password( string $file ) {
	if ( ! wp_is_application_passwords_available() ) {
		wpctl_fail( 'application passwords unavailable: WP_ENVIRONMENT_TYPE must be local on plain http' );
	}
	$known = is_file( $file ) ? json_decode( (string) file_get_contents( $file ), true ) : null;
	if ( ! empty( $known['uuid'] ) && WP_Application_Passwords::get_user_application_password( 1, $known['uuid'] ) ) {
		wpctl_done( array( 'app_password' => 'kept' ) );
	}
	$created = WP_Application_Passwords::create_new_application_password( 1, array( 'name' => 'svc-gitops real-dashboard' ) );
	if ( is_wp_error( $created ) ) {
		wpctl_fail( $created->get_error_message() );
	}
	wpctl_secret_file(
		$file,
		array( 'user' => wp_get_current_user()->user_login, 'password' => $created[0], 'uuid' => $created[1]['uuid'] )
	);
	wpctl_done( array( 'app_password' => 'created' ) );
}

/*
 * MainWP keeps only a hash of the key and the secret, and shows them once; the harness keeps them
 * in FILE. REST v2 takes them as Basic auth (ck:cs) or as the bearer "<cs hex>==<ck hex>"
 * (MainWP's parse_auth_header() adds the cs_/ck_ prefixes itself).
 */
function wpctl_rest_key( string $file ) {
	global $wpdb;
	$db    = \MainWP\Dashboard\MainWP_DB::instance();
	$table = $db->get_table_name( 'api_keys' );
	$known = is_file( $file ) ? json_decode( (string) file_get_contents( $file ), true ) : null;
	if ( ! empty( $known['consumer_key'] ) ) {
		$hash = mainwp_api_hash( $known['consumer_key'] );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared
		if ( $wpdb->get_var( $wpdb->prepare( "SELECT key_id FROM $table WHERE consumer_key = %s AND enabled = 1", $hash ) ) ) {
			wpctl_done( array( 'rest_key' => 'kept' ) );
		}
	}
	$key    = 'ck_' . bin2hex( random_bytes( 20 ) );
	$secret = 'cs_' . bin2hex( random_bytes( 20 ) );
	$row    = $db->insert_rest_api_key( $key, $secret, 'read_write', 'svc-gitops real-dashboard', 1 );
	if ( ! is_array( $row ) ) {
		wpctl_fail( 'MainWP did not store the REST API key: ' . $wpdb->last_error );
	}
	wpctl_secret_file(
		$file,
		array(
			'consumer_key'    => $key,
			'consumer_secret' => $secret,
			'token'           => substr( $secret, 3 ) . '==' . substr( $key, 3 ),
		)
	);
	wpctl_done( array( 'rest_key' => 'created' ) );
}

function wpctl_announce( string $file ) {
	$wanted = json_decode( (string) file_get_contents( $file ), true );
	if ( ! is_array( $wanted ) ) {
		wpctl_fail( "$file is not JSON" );
	}
	update_option( 'svc_real_updates', $wanted, false );
	foreach ( array( 'update_plugins', 'update_themes', 'mainwp_update_plugins_cached', 'mainwp_update_themes_cached' ) as $name ) {
		delete_site_transient( $name );
	}
	// Stored once, so code that reads the raw option (not the filtered transient) sees them too.
	set_site_transient( 'update_plugins', get_site_transient( 'update_plugins' ) );
	set_site_transient( 'update_themes', get_site_transient( 'update_themes' ) );
	$plugins = (array) ( get_site_transient( 'update_plugins' )->response ?? array() );
	$themes  = (array) ( get_site_transient( 'update_themes' )->response ?? array() );
	wpctl_done( array( 'plugins' => array_keys( $plugins ), 'themes' => array_keys( $themes ) ) );
}

function wpctl_ui_ignores( int $site ) {
	$handler = '\MainWP\Dashboard\MainWP_Updates_Handler';
	$global  = $handler::ignore_plugins_themes( 'theme', 'twentytwentyfive', 'Twenty Twenty-Five' );
	$local   = $handler::ignore_plugin_theme( 'plugin', 'akismet/akismet.php', 'Akismet', $site );
	wpctl_done( array( 'global_theme' => $global, 'site_plugin' => $local ) );
}

/*
 * MainWP 6.1.2's REST v2 per-slug ignore (POST updates/{id}/ignore/plugins, slug=...) stores the
 * entry under key 0 (wp_parse_list() gives a list that is then used as slug => name).
 */
function wpctl_unpoison( int $site ) {
	$db      = \MainWP\Dashboard\MainWP_DB::instance();
	$website = $db->get_website_by_id( $site );
	if ( ! $website ) {
		wpctl_fail( "no site $site" );
	}
	$changes = array();
	$removed = 0;
	foreach ( array( 'ignored_plugins', 'ignored_themes' ) as $column ) {
		$list = json_decode( (string) $website->$column, true );
		if ( ! is_array( $list ) ) {
			continue;
		}
		$kept = array_filter( $list, 'is_string', ARRAY_FILTER_USE_KEY );
		if ( count( $kept ) !== count( $list ) ) {
			$removed += count( $list ) - count( $kept );
			$changes[ $column ] = $kept ? wp_json_encode( $kept ) : '';
		}
	}
	if ( $changes ) {
		$db->update_website_values( $site, $changes );
	}
	wpctl_done( array( 'site' => $site, 'removed' => $removed ) );
}
