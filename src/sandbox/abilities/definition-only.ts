/**
 * The shipped release 6.1 abilities the sandbox serves as definitions only (quirk
 * `fullShippedCatalogue`): names, categories, annotations and schemas verbatim from
 * `shared/catalogue/shipped-abilities.json` (texts removed there), in its order. Running one
 * answers 501 `sandbox_not_emulated`. `namespace` is set where it is not the dashboard's own
 * (WordPress core's `core/…`); `category` is without the dashboard's prefix, except core's.
 */
export interface DefinitionOnlyAbility {
  name: string;
  namespace?: string;
  category: string;
  annotations: { readonly: boolean; destructive: boolean; idempotent: boolean };
  /** JSON Schema as shipped (keywords the sandbox's validator does not know included; `[]` = none). */
  input_schema: unknown;
  output_schema: unknown;
}

export const DEFINITION_ONLY_ABILITIES: readonly DefinitionOnlyAbility[] = [
  {
    name: 'get-site-info',
    namespace: 'core',
    category: 'site',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        fields: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['name', 'description', 'url', 'wpurl', 'admin_email', 'charset', 'language', 'version'],
          },
        },
      },
      additionalProperties: false,
      default: {},
    },
    output_schema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
        },
        description: {
          type: 'string',
        },
        url: {
          type: 'string',
        },
        wpurl: {
          type: 'string',
        },
        admin_email: {
          type: 'string',
        },
        charset: {
          type: 'string',
        },
        language: {
          type: 'string',
        },
        version: {
          type: 'string',
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'get-environment-info',
    namespace: 'core',
    category: 'site',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: [],
    output_schema: {
      type: 'object',
      required: ['environment', 'php_version', 'db_server_info', 'wp_version'],
      properties: {
        environment: {
          type: 'string',
          enum: ['production', 'staging', 'development', 'local'],
        },
        php_version: {
          type: 'string',
        },
        db_server_info: {
          type: 'string',
        },
        wp_version: {
          type: 'string',
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'add-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      required: ['url', 'name', 'admin_username'],
      additionalProperties: false,
      properties: {
        url: {
          type: 'string',
        },
        name: {
          type: 'string',
        },
        admin_username: {
          type: 'string',
        },
        verify_certificate: {
          type: 'integer',
          default: 1,
          enum: [0, 1, 2],
        },
        ssl_version: {
          type: 'integer',
          default: 0,
        },
        http_user: {
          type: 'string',
        },
        http_pass: {
          type: 'string',
        },
        tag_ids: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
        client_id: {
          type: 'integer',
        },
        adminpassword: {
          type: 'string',
        },
        uniqueid: {
          type: 'string',
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        url: {
          type: 'string',
          format: 'uri',
        },
        name: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['connected', 'disconnected', 'suspended'],
        },
        client_id: {
          oneOf: [
            {
              type: 'integer',
              minimum: 1,
            },
            {
              type: 'null',
            },
          ],
        },
        wp_version: {
          type: 'string',
        },
        php_version: {
          type: 'string',
        },
        last_sync: {
          oneOf: [
            {
              type: 'string',
              format: 'date-time',
            },
            {
              type: 'null',
            },
          ],
        },
        admin_username: {
          type: 'string',
        },
        child_version: {
          type: 'string',
        },
        notes: {
          type: 'string',
        },
        stats: {
          type: 'object',
          properties: {
            plugin_updates: {
              type: 'integer',
            },
            theme_updates: {
              type: 'integer',
            },
            wp_update_available: {
              type: 'boolean',
            },
            health_score: {
              oneOf: [
                {
                  type: 'integer',
                  minimum: 0,
                  maximum: 100,
                },
                {
                  type: 'null',
                },
              ],
            },
          },
        },
      },
      required: ['id', 'url', 'name', 'status'],
    },
  },
  {
    name: 'update-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      additionalProperties: false,
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        name: {
          type: 'string',
        },
        url: {
          type: 'string',
        },
        admin_username: {
          type: 'string',
        },
        verify_certificate: {
          type: 'integer',
          enum: [0, 1, 2],
        },
        ssl_version: {
          type: 'integer',
        },
        http_user: {
          type: 'string',
        },
        http_pass: {
          type: 'string',
        },
        tag_ids: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
        client_id: {
          type: 'integer',
        },
        suspended: {
          type: 'integer',
          enum: [0, 1],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        url: {
          type: 'string',
          format: 'uri',
        },
        name: {
          type: 'string',
        },
        status: {
          type: 'string',
          enum: ['connected', 'disconnected', 'suspended'],
        },
        client_id: {
          oneOf: [
            {
              type: 'integer',
              minimum: 1,
            },
            {
              type: 'null',
            },
          ],
        },
        wp_version: {
          type: 'string',
        },
        php_version: {
          type: 'string',
        },
        last_sync: {
          oneOf: [
            {
              type: 'string',
              format: 'date-time',
            },
            {
              type: 'null',
            },
          ],
        },
        admin_username: {
          type: 'string',
        },
        child_version: {
          type: 'string',
        },
        notes: {
          type: 'string',
        },
        stats: {
          type: 'object',
          properties: {
            plugin_updates: {
              type: 'integer',
            },
            theme_updates: {
              type: 'integer',
            },
            wp_update_available: {
              type: 'boolean',
            },
            health_score: {
              oneOf: [
                {
                  type: 'integer',
                  minimum: 0,
                  maximum: 100,
                },
                {
                  type: 'null',
                },
              ],
            },
          },
        },
      },
      required: ['id', 'url', 'name', 'status'],
    },
  },
  {
    name: 'delete-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        confirm: {
          type: 'boolean',
          default: false,
        },
        dry_run: {
          type: 'boolean',
          default: false,
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        dry_run: {
          type: 'boolean',
        },
        would_affect: {
          type: 'object',
        },
        warnings: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        deleted: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'reconnect-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        reconnected: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'disconnect-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        disconnected: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'suspend-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        suspended: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'unsuspend-site-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        unsuspended: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'activate-site-plugins-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain', 'plugins'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        plugins: {
          type: 'array',
          items: {
            type: 'string',
          },
          minItems: 1,
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        activated: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              slug: {
                type: 'string',
              },
              code: {
                type: 'string',
              },
              message: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
  {
    name: 'deactivate-site-plugins-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain', 'plugins'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        plugins: {
          type: 'array',
          items: {
            type: 'string',
          },
          minItems: 1,
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        deactivated: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              slug: {
                type: 'string',
              },
              code: {
                type: 'string',
              },
              message: {
                type: 'string',
              },
            },
          },
        },
      },
    },
  },
  {
    name: 'delete-site-plugins-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain', 'plugins'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        plugins: {
          type: 'array',
          items: {
            type: 'string',
          },
          minItems: 1,
        },
        confirm: {
          type: 'boolean',
          default: false,
        },
        dry_run: {
          type: 'boolean',
          default: false,
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        dry_run: {
          type: 'boolean',
        },
        would_affect: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        count: {
          type: 'integer',
        },
        warnings: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        deleted: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
      },
    },
  },
  {
    name: 'get-abandoned-plugins-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        plugins: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              version: {
                type: 'string',
              },
              last_updated: {
                type: 'string',
              },
              days_since_update: {
                type: ['integer', 'null'],
              },
            },
          },
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'activate-site-theme-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain', 'theme'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        theme: {
          type: 'string',
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        activated: {
          type: 'boolean',
        },
        theme: {
          type: 'object',
        },
      },
    },
  },
  {
    name: 'delete-site-themes-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain', 'themes'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        themes: {
          type: 'array',
          items: {
            type: 'string',
          },
          minItems: 1,
        },
        confirm: {
          type: 'boolean',
          default: false,
        },
        dry_run: {
          type: 'boolean',
          default: false,
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        dry_run: {
          type: 'boolean',
        },
        would_affect: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        count: {
          type: 'integer',
        },
        warnings: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        deleted: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
      },
    },
  },
  {
    name: 'get-abandoned-themes-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        themes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              version: {
                type: 'string',
              },
              last_updated: {
                type: 'string',
              },
              days_since_update: {
                type: ['integer', 'null'],
              },
            },
          },
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'get-site-security-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        site_id: {
          type: 'integer',
        },
        security_issues: {
          type: 'object',
        },
        total_issues: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'get-site-changes-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        page: {
          type: 'integer',
          default: 1,
          minimum: 1,
        },
        per_page: {
          type: 'integer',
          default: 20,
          minimum: 1,
          maximum: 100,
        },
        type: {
          type: 'string',
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        page: {
          type: 'integer',
        },
        per_page: {
          type: 'integer',
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'get-site-client-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        client: {
          type: ['object', 'null'],
          additionalProperties: true,
        },
        message: {
          type: 'string',
        },
      },
      required: ['client'],
    },
  },
  {
    name: 'get-site-costs-v1',
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      required: ['site_id_or_domain'],
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
    },
    output_schema: {
      type: 'object',
      properties: {
        site_id: {
          type: 'integer',
        },
        costs: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'reconnect-sites-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      properties: {
        site_ids_or_domains: {
          type: 'array',
          items: {
            type: ['integer', 'string'],
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        queued: {
          type: 'boolean',
        },
        job_id: {
          type: 'string',
        },
        total: {
          type: 'integer',
        },
        reconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        disconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        checked: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        suspended: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        total_reconnected: {
          type: 'integer',
        },
        total_disconnected: {
          type: 'integer',
        },
        total_checked: {
          type: 'integer',
        },
        total_suspended: {
          type: 'integer',
        },
        total_errors: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'disconnect-sites-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      properties: {
        site_ids_or_domains: {
          type: 'array',
          items: {
            type: ['integer', 'string'],
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        queued: {
          type: 'boolean',
        },
        job_id: {
          type: 'string',
        },
        total: {
          type: 'integer',
        },
        reconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        disconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        checked: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        suspended: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        total_reconnected: {
          type: 'integer',
        },
        total_disconnected: {
          type: 'integer',
        },
        total_checked: {
          type: 'integer',
        },
        total_suspended: {
          type: 'integer',
        },
        total_errors: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'check-sites-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      properties: {
        site_ids_or_domains: {
          type: 'array',
          items: {
            type: ['integer', 'string'],
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        queued: {
          type: 'boolean',
        },
        job_id: {
          type: 'string',
        },
        total: {
          type: 'integer',
        },
        reconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        disconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        checked: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        suspended: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        total_reconnected: {
          type: 'integer',
        },
        total_disconnected: {
          type: 'integer',
        },
        total_checked: {
          type: 'integer',
        },
        total_suspended: {
          type: 'integer',
        },
        total_errors: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'suspend-sites-v1',
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      properties: {
        site_ids_or_domains: {
          type: 'array',
          items: {
            type: ['integer', 'string'],
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        queued: {
          type: 'boolean',
        },
        job_id: {
          type: 'string',
        },
        total: {
          type: 'integer',
        },
        reconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        disconnected: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        checked: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        suspended: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
          },
        },
        total_reconnected: {
          type: 'integer',
        },
        total_disconnected: {
          type: 'integer',
        },
        total_checked: {
          type: 'integer',
        },
        total_suspended: {
          type: 'integer',
        },
        total_errors: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'count-clients-v1',
    category: 'clients',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      default: [],
    },
    output_schema: {
      type: 'object',
      properties: {
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'get-client-v1',
    category: 'clients',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        suspended: {
          type: 'integer',
        },
        created: {
          type: ['string', 'null'],
          format: 'date-time',
        },
        facebook: {
          type: 'string',
        },
        twitter: {
          type: 'string',
        },
        instagram: {
          type: 'string',
        },
        linkedin: {
          type: 'string',
        },
      },
    },
  },
  {
    name: 'add-client-v1',
    category: 'clients',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
        },
        client_email: {
          type: 'string',
          format: 'email',
        },
        client_phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        selected_sites: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
        client_facebook: {
          type: 'string',
        },
        client_twitter: {
          type: 'string',
        },
        client_instagram: {
          type: 'string',
        },
        client_linkedin: {
          type: 'string',
        },
      },
      required: ['name'],
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        suspended: {
          type: 'integer',
        },
        created: {
          type: ['string', 'null'],
          format: 'date-time',
        },
        facebook: {
          type: 'string',
        },
        twitter: {
          type: 'string',
        },
        instagram: {
          type: 'string',
        },
        linkedin: {
          type: 'string',
        },
      },
    },
  },
  {
    name: 'update-client-v1',
    category: 'clients',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
        name: {
          type: 'string',
        },
        client_email: {
          type: 'string',
          format: 'email',
        },
        client_phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        selected_sites: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
        client_facebook: {
          type: 'string',
        },
        client_twitter: {
          type: 'string',
        },
        client_instagram: {
          type: 'string',
        },
        client_linkedin: {
          type: 'string',
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        suspended: {
          type: 'integer',
        },
        created: {
          type: ['string', 'null'],
          format: 'date-time',
        },
        facebook: {
          type: 'string',
        },
        twitter: {
          type: 'string',
        },
        instagram: {
          type: 'string',
        },
        linkedin: {
          type: 'string',
        },
      },
    },
  },
  {
    name: 'delete-client-v1',
    category: 'clients',
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
        confirm: {
          type: 'boolean',
          default: false,
        },
        dry_run: {
          type: 'boolean',
          default: false,
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      oneOf: [
        {
          type: 'object',
          properties: {
            id: {
              type: 'integer',
            },
            name: {
              type: 'string',
            },
            email: {
              type: 'string',
            },
            phone: {
              type: 'string',
            },
            address_1: {
              type: 'string',
            },
            address_2: {
              type: 'string',
            },
            city: {
              type: 'string',
            },
            state: {
              type: 'string',
            },
            zip: {
              type: 'string',
            },
            country: {
              type: 'string',
            },
            note: {
              type: 'string',
            },
            suspended: {
              type: 'integer',
            },
            created: {
              type: ['string', 'null'],
              format: 'date-time',
            },
            facebook: {
              type: 'string',
            },
            twitter: {
              type: 'string',
            },
            instagram: {
              type: 'string',
            },
            linkedin: {
              type: 'string',
            },
          },
          required: ['id', 'name'],
        },
        {
          type: 'object',
          required: ['dry_run', 'would_affect'],
          properties: {
            dry_run: {
              type: 'boolean',
            },
            would_affect: {
              type: 'object',
              properties: {
                client: {
                  type: 'object',
                  properties: {
                    id: {
                      type: 'integer',
                    },
                    name: {
                      type: 'string',
                    },
                    email: {
                      type: 'string',
                    },
                    phone: {
                      type: 'string',
                    },
                    address_1: {
                      type: 'string',
                    },
                    address_2: {
                      type: 'string',
                    },
                    city: {
                      type: 'string',
                    },
                    state: {
                      type: 'string',
                    },
                    zip: {
                      type: 'string',
                    },
                    country: {
                      type: 'string',
                    },
                    note: {
                      type: 'string',
                    },
                    suspended: {
                      type: 'integer',
                    },
                    created: {
                      type: ['string', 'null'],
                      format: 'date-time',
                    },
                    facebook: {
                      type: 'string',
                    },
                    twitter: {
                      type: 'string',
                    },
                    instagram: {
                      type: 'string',
                    },
                    linkedin: {
                      type: 'string',
                    },
                  },
                },
                associated_sites_count: {
                  type: 'integer',
                },
              },
            },
            count: {
              type: 'integer',
            },
            warnings: {
              type: 'array',
              items: {
                type: 'string',
              },
            },
          },
        },
      ],
    },
  },
  {
    name: 'count-client-sites-v1',
    category: 'clients',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'get-client-costs-v1',
    category: 'clients',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: {
                type: 'integer',
              },
              name: {
                type: 'string',
              },
              type: {
                type: 'string',
              },
              price: {
                type: 'number',
              },
              renewal_type: {
                type: 'string',
              },
              payment_method: {
                type: 'string',
              },
              product_type: {
                type: 'string',
              },
              last_renewal: {
                type: ['string', 'null'],
              },
              next_renewal: {
                type: ['string', 'null'],
              },
            },
          },
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
  {
    name: 'suspend-client-v1',
    category: 'clients',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        suspended: {
          type: 'integer',
        },
        created: {
          type: ['string', 'null'],
          format: 'date-time',
        },
        facebook: {
          type: 'string',
        },
        twitter: {
          type: 'string',
        },
        instagram: {
          type: 'string',
        },
        linkedin: {
          type: 'string',
        },
      },
    },
  },
  {
    name: 'unsuspend-client-v1',
    category: 'clients',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        client_id_or_email: {
          type: ['integer', 'string'],
        },
      },
      required: ['client_id_or_email'],
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        email: {
          type: 'string',
        },
        phone: {
          type: 'string',
        },
        address_1: {
          type: 'string',
        },
        address_2: {
          type: 'string',
        },
        city: {
          type: 'string',
        },
        state: {
          type: 'string',
        },
        zip: {
          type: 'string',
        },
        country: {
          type: 'string',
        },
        note: {
          type: 'string',
        },
        suspended: {
          type: 'integer',
        },
        created: {
          type: ['string', 'null'],
          format: 'date-time',
        },
        facebook: {
          type: 'string',
        },
        twitter: {
          type: 'string',
        },
        instagram: {
          type: 'string',
        },
        linkedin: {
          type: 'string',
        },
      },
    },
  },
  {
    name: 'get-tag-v1',
    category: 'tags',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        tag_id: {
          type: 'integer',
          minimum: 1,
        },
      },
      required: ['tag_id'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        color: {
          type: ['string', 'null'],
        },
        sites_count: {
          type: 'integer',
        },
        sites_ids: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
      },
    },
  },
  {
    name: 'add-tag-v1',
    category: 'tags',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    input_schema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
        },
        color: {
          type: 'string',
          pattern: '^#[0-9A-Fa-f]{6}$',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        color: {
          type: ['string', 'null'],
        },
        sites_count: {
          type: 'integer',
        },
        sites_ids: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
      },
    },
  },
  {
    name: 'update-tag-v1',
    category: 'tags',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        tag_id: {
          type: 'integer',
          minimum: 1,
        },
        name: {
          type: 'string',
          minLength: 1,
        },
        color: {
          type: 'string',
          pattern: '^#[0-9A-Fa-f]{6}$',
        },
      },
      required: ['tag_id'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        id: {
          type: 'integer',
        },
        name: {
          type: 'string',
        },
        color: {
          type: ['string', 'null'],
        },
        sites_count: {
          type: 'integer',
        },
        sites_ids: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
      },
    },
  },
  {
    name: 'delete-tag-v1',
    category: 'tags',
    annotations: {
      readonly: false,
      destructive: true,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        tag_id: {
          type: 'integer',
          minimum: 1,
        },
        confirm: {
          type: 'boolean',
          default: false,
        },
        dry_run: {
          type: 'boolean',
          default: false,
        },
      },
      required: ['tag_id'],
      additionalProperties: false,
    },
    output_schema: {
      oneOf: [
        {
          type: 'object',
          required: ['deleted', 'tag'],
          properties: {
            deleted: {
              type: 'boolean',
            },
            tag: {
              type: 'object',
              properties: {
                id: {
                  type: 'integer',
                },
                name: {
                  type: 'string',
                },
              },
            },
          },
        },
        {
          type: 'object',
          required: ['dry_run', 'would_affect'],
          properties: {
            dry_run: {
              type: 'boolean',
            },
            would_affect: {
              type: 'object',
              properties: {
                id: {
                  type: 'integer',
                },
                name: {
                  type: 'string',
                },
                sites_count: {
                  type: 'integer',
                },
                clients_count: {
                  type: 'integer',
                },
              },
            },
            warnings: {
              type: 'array',
              items: {
                type: 'string',
              },
            },
          },
        },
      ],
    },
  },
  {
    name: 'get-tag-clients-v1',
    category: 'tags',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: 'object',
      properties: {
        tag_id: {
          type: 'integer',
          minimum: 1,
        },
        page: {
          type: 'integer',
          default: 1,
          minimum: 1,
        },
        per_page: {
          type: 'integer',
          default: 20,
          minimum: 1,
          maximum: 100,
        },
      },
      required: ['tag_id'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              client_id: {
                type: 'integer',
              },
              name: {
                type: 'string',
              },
              email: {
                type: 'string',
              },
              suspended: {
                type: 'integer',
              },
            },
          },
        },
        page: {
          type: 'integer',
        },
        per_page: {
          type: 'integer',
        },
        total: {
          type: 'integer',
        },
      },
    },
  },
];
