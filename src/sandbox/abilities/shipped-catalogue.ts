import type { Schema } from './validate.js';

/**
 * The shipped release 6.1 catalogue of the abilities the sandbox serves (names, categories,
 * annotations, input and output schemas), taken verbatim from the shipped catalogue structure
 * (`shared/catalogue/shipped-abilities.json`, texts removed there). `category` is without the
 * namespace prefix (`sites` = `svc-sites`). Data only: the profiles derive their catalogues from it.
 */
export interface ShippedAbility {
  category: string;
  annotations: { readonly: boolean; destructive: boolean; idempotent: boolean };
  has_instructions: boolean;
  input_schema: Schema;
  output_schema: Schema;
}

export const SHIPPED_CATALOGUE: Readonly<Record<string, ShippedAbility>> = {
  'list-sites-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: ['object', 'null'],
      properties: {
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
        status: {
          type: 'string',
          // The shipped catalogue document lacks it; MainWP 6.1.2 serves it.
          enum: ['any', 'connected', 'disconnected', 'suspended', 'available_update'],
          default: 'any',
        },
        search: {
          type: 'string',
          default: '',
        },
        client_id: {
          type: 'integer',
          minimum: 1,
        },
        tag_id: {
          type: 'integer',
          minimum: 1,
        },
      },
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
            },
            required: ['id', 'url', 'name', 'status'],
            additionalProperties: false,
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
      required: ['items', 'page', 'per_page', 'total'],
    },
  },
  'get-site-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        include_stats: {
          type: 'boolean',
          default: false,
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
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
  'sync-sites-v1': {
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: true,
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
        synced: {
          type: 'array',
          items: {
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
            },
            required: ['id', 'url', 'name'],
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              identifier: {
                oneOf: [
                  {
                    type: 'integer',
                  },
                  {
                    type: 'string',
                  },
                ],
              },
              code: {
                type: 'string',
              },
              message: {
                type: 'string',
              },
            },
            required: ['identifier', 'code', 'message'],
          },
        },
        total_synced: {
          type: 'integer',
        },
        total_errors: {
          type: 'integer',
        },
        queued: {
          type: 'boolean',
        },
        job_id: {
          type: 'string',
        },
        status_url: {
          type: 'string',
          format: 'uri',
        },
        sites_queued: {
          type: 'integer',
        },
      },
      required: [],
    },
  },
  'get-site-plugins-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        status: {
          type: 'string',
          enum: ['all', 'active', 'inactive'],
          default: 'all',
        },
        has_update: {
          type: 'boolean',
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        site_id: {
          type: 'integer',
        },
        site_url: {
          type: 'string',
          format: 'uri',
        },
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
              active: {
                type: 'boolean',
              },
              update_version: {
                oneOf: [
                  {
                    type: 'string',
                  },
                  {
                    type: 'null',
                  },
                ],
              },
            },
            required: ['slug', 'name', 'version', 'active'],
          },
        },
        total: {
          type: 'integer',
        },
      },
      required: ['site_id', 'site_url', 'plugins', 'total'],
    },
  },
  'get-site-themes-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        status: {
          type: 'string',
          enum: ['all', 'active', 'inactive'],
          default: 'all',
        },
        has_update: {
          type: 'boolean',
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        site_id: {
          type: 'integer',
        },
        site_url: {
          type: 'string',
          format: 'uri',
        },
        active_theme: {
          type: 'string',
        },
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
              active: {
                type: 'boolean',
              },
              update_version: {
                oneOf: [
                  {
                    type: 'string',
                  },
                  {
                    type: 'null',
                  },
                ],
              },
            },
            required: ['slug', 'name', 'version', 'active'],
          },
        },
        total: {
          type: 'integer',
        },
      },
      required: ['site_id', 'site_url', 'active_theme', 'themes', 'total'],
    },
  },
  'check-site-v1': {
    category: 'sites',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
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
        response_time: {
          type: 'number',
        },
        checked: {
          type: 'boolean',
        },
        site: {
          type: 'object',
        },
        status: {
          type: 'object',
          properties: {
            online: {
              type: 'boolean',
            },
            http_code: {
              type: 'integer',
            },
            response_time: {
              type: 'number',
            },
          },
        },
      },
    },
  },
  'count-sites-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: ['object', 'null'],
      properties: {
        status: {
          type: 'string',
          enum: ['connected', 'disconnected', 'suspended'],
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
      },
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
  'get-sites-basic-v1': {
    category: 'sites',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: ['object', 'null'],
      properties: {
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
        status: {
          type: 'string',
          enum: ['connected', 'disconnected', 'suspended'],
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
      },
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
              url: {
                type: 'string',
              },
              name: {
                type: 'string',
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
  'list-updates-v1': {
    category: 'updates',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
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
        types: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['core', 'plugins', 'themes', 'translations'],
          },
          default: [],
        },
        page: {
          type: 'integer',
          default: 1,
          minimum: 1,
        },
        per_page: {
          type: 'integer',
          default: 50,
          minimum: 1,
          maximum: 200,
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        updates: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                enum: ['core', 'plugin', 'theme', 'translation'],
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              current_version: {
                type: 'string',
              },
              new_version: {
                type: 'string',
              },
            },
            required: [
              'site_id',
              'site_url',
              'site_name',
              'type',
              'slug',
              'name',
              'current_version',
              'new_version',
            ],
          },
        },
        summary: {
          type: 'object',
          properties: {
            core: {
              type: 'integer',
            },
            plugins: {
              type: 'integer',
            },
            themes: {
              type: 'integer',
            },
            translations: {
              type: 'integer',
            },
            total: {
              type: 'integer',
            },
          },
          required: ['core', 'plugins', 'themes', 'translations', 'total'],
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
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
              },
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
            required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
          },
        },
      },
      required: ['updates', 'summary', 'page', 'per_page', 'total'],
    },
  },
  'run-updates-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
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
        types: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['core', 'plugins', 'themes', 'translations'],
          },
          default: [],
        },
        specific_items: {
          type: 'array',
          items: {
            type: 'string',
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: {
            updated: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
                  slug: {
                    type: 'string',
                  },
                  name: {
                    type: 'string',
                  },
                  old_version: {
                    type: 'string',
                  },
                  new_version: {
                    type: 'string',
                  },
                },
                required: [
                  'site_id',
                  'site_url',
                  'site_name',
                  'type',
                  'slug',
                  'name',
                  'old_version',
                  'new_version',
                ],
              },
            },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
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
                required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
              },
            },
            summary: {
              type: 'object',
              properties: {
                total_updated: {
                  type: 'integer',
                },
                total_errors: {
                  type: 'integer',
                },
                sites_updated: {
                  type: 'integer',
                },
              },
              required: ['total_updated', 'total_errors', 'sites_updated'],
            },
          },
          required: ['updated', 'errors', 'summary'],
        },
        {
          type: 'object',
          properties: {
            queued: {
              type: 'boolean',
              const: true,
            },
            job_id: {
              type: 'string',
            },
            status_url: {
              type: 'string',
              format: 'uri',
            },
            updates_queued: {
              type: 'integer',
            },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
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
                required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
              },
            },
          },
          required: ['queued', 'job_id', 'status_url', 'updates_queued', 'errors'],
        },
      ],
    },
  },
  'list-ignored-updates-v1': {
    category: 'updates',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
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
        types: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['core', 'plugins', 'themes'],
          },
          default: [],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        ignored: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                enum: ['core', 'plugin', 'theme'],
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              ignored_version: {
                type: 'string',
              },
            },
            required: ['site_id', 'site_url', 'site_name', 'type', 'slug', 'name', 'ignored_version'],
          },
        },
        total: {
          type: 'integer',
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
              },
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
            required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
          },
        },
      },
      required: ['ignored', 'total'],
    },
  },
  'set-ignored-updates-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: ['ignore', 'unignore'],
        },
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        type: {
          type: 'string',
          enum: ['core', 'plugin', 'theme'],
        },
        slug: {
          type: 'string',
        },
      },
      required: ['action', 'site_id_or_domain', 'type', 'slug'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        success: {
          type: 'boolean',
        },
        action: {
          type: 'string',
          enum: ['ignore', 'unignore'],
        },
        site_id: {
          type: 'integer',
        },
        type: {
          type: 'string',
        },
        slug: {
          type: 'string',
        },
      },
      required: ['success', 'action', 'site_id', 'type', 'slug'],
    },
  },
  'get-site-updates-v1': {
    category: 'updates',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        types: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['core', 'plugins', 'themes', 'translations'],
          },
          default: ['core', 'plugins', 'themes', 'translations'],
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        site_id: {
          type: 'integer',
        },
        site_url: {
          type: 'string',
          format: 'uri',
        },
        site_name: {
          type: 'string',
        },
        updates: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              type: {
                type: 'string',
                enum: ['core', 'plugin', 'theme', 'translation'],
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              current_version: {
                type: 'string',
              },
              new_version: {
                type: 'string',
              },
            },
          },
        },
        rollback_items: {
          type: 'object',
          properties: {
            plugins: {
              type: 'array',
              items: {
                type: 'object',
              },
            },
            themes: {
              type: 'array',
              items: {
                type: 'object',
              },
            },
          },
        },
        summary: {
          type: 'object',
          properties: {
            core: {
              type: 'integer',
            },
            plugins: {
              type: 'integer',
            },
            themes: {
              type: 'integer',
            },
            translations: {
              type: 'integer',
            },
            total: {
              type: 'integer',
            },
          },
        },
      },
      required: ['site_id', 'site_url', 'site_name', 'updates', 'rollback_items', 'summary'],
    },
  },
  'update-site-core-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        updated: {
          type: 'object',
          properties: {
            site_id: {
              type: 'integer',
            },
            site_url: {
              type: 'string',
              format: 'uri',
            },
            site_name: {
              type: 'string',
            },
            type: {
              type: 'string',
              const: 'core',
            },
            slug: {
              type: 'string',
            },
            name: {
              type: 'string',
            },
            old_version: {
              type: 'string',
            },
            new_version: {
              type: 'string',
            },
          },
          required: [
            'site_id',
            'site_url',
            'site_name',
            'type',
            'slug',
            'name',
            'old_version',
            'new_version',
          ],
        },
      },
      required: ['updated'],
    },
  },
  'update-site-plugins-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        slugs: {
          type: 'array',
          items: {
            type: 'string',
          },
          default: [],
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        updated: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'plugin',
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              old_version: {
                type: 'string',
              },
              new_version: {
                type: 'string',
              },
            },
            required: [
              'site_id',
              'site_url',
              'site_name',
              'type',
              'slug',
              'name',
              'old_version',
              'new_version',
            ],
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'plugin',
              },
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
            required: ['site_id', 'site_url', 'site_name', 'type', 'slug', 'code', 'message'],
          },
        },
        summary: {
          type: 'object',
          properties: {
            total_updated: {
              type: 'integer',
            },
            total_errors: {
              type: 'integer',
            },
          },
          required: ['total_updated', 'total_errors'],
        },
      },
      required: ['updated', 'errors', 'summary'],
    },
  },
  'update-site-themes-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        slugs: {
          type: 'array',
          items: {
            type: 'string',
          },
          default: [],
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        updated: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'theme',
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              old_version: {
                type: 'string',
              },
              new_version: {
                type: 'string',
              },
            },
            required: [
              'site_id',
              'site_url',
              'site_name',
              'type',
              'slug',
              'name',
              'old_version',
              'new_version',
            ],
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'theme',
              },
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
            required: ['site_id', 'site_url', 'site_name', 'type', 'slug', 'code', 'message'],
          },
        },
        summary: {
          type: 'object',
          properties: {
            total_updated: {
              type: 'integer',
            },
            total_errors: {
              type: 'integer',
            },
          },
          required: ['total_updated', 'total_errors'],
        },
      },
      required: ['updated', 'errors', 'summary'],
    },
  },
  'update-site-translations-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        slugs: {
          type: 'array',
          items: {
            type: 'string',
          },
          default: [],
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        updated: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'translation',
              },
              slug: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              old_version: {
                type: 'string',
              },
              new_version: {
                type: 'string',
              },
            },
            required: [
              'site_id',
              'site_url',
              'site_name',
              'type',
              'slug',
              'name',
              'old_version',
              'new_version',
            ],
          },
        },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              site_url: {
                type: 'string',
                format: 'uri',
              },
              site_name: {
                type: 'string',
              },
              type: {
                type: 'string',
                const: 'translation',
              },
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
            required: ['site_id', 'site_url', 'site_name', 'type', 'slug', 'code', 'message'],
          },
        },
        summary: {
          type: 'object',
          properties: {
            total_updated: {
              type: 'integer',
            },
            total_errors: {
              type: 'integer',
            },
          },
          required: ['total_updated', 'total_errors'],
        },
      },
      required: ['updated', 'errors', 'summary'],
    },
  },
  'ignore-site-core-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        action: {
          type: 'string',
          enum: ['add', 'remove'],
          default: 'add',
        },
      },
      required: ['site_id_or_domain'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        success: {
          type: 'boolean',
        },
        message: {
          type: 'string',
        },
        ignored_count: {
          type: 'integer',
        },
      },
      required: ['success', 'message', 'ignored_count'],
    },
  },
  'ignore-site-plugins-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        slugs: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        action: {
          type: 'string',
          enum: ['add', 'remove'],
          default: 'add',
        },
      },
      required: ['site_id_or_domain', 'slugs'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        success: {
          type: 'boolean',
        },
        message: {
          type: 'string',
        },
        ignored_count: {
          type: 'integer',
        },
      },
      required: ['success', 'message', 'ignored_count'],
    },
  },
  'ignore-site-themes-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: true,
    },
    has_instructions: true,
    input_schema: {
      type: 'object',
      properties: {
        site_id_or_domain: {
          type: ['integer', 'string'],
        },
        slugs: {
          type: 'array',
          items: {
            type: 'string',
          },
        },
        action: {
          type: 'string',
          enum: ['add', 'remove'],
          default: 'add',
        },
      },
      required: ['site_id_or_domain', 'slugs'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        success: {
          type: 'boolean',
        },
        message: {
          type: 'string',
        },
        ignored_count: {
          type: 'integer',
        },
      },
      required: ['success', 'message', 'ignored_count'],
    },
  },
  'update-all-v1': {
    category: 'updates',
    annotations: {
      readonly: false,
      destructive: false,
      idempotent: false,
    },
    has_instructions: true,
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
        types: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['core', 'plugins', 'themes', 'translations'],
          },
          default: ['core', 'plugins', 'themes', 'translations'],
        },
      },
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      oneOf: [
        {
          type: 'object',
          properties: {
            updated: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
                  slug: {
                    type: 'string',
                  },
                  name: {
                    type: 'string',
                  },
                  old_version: {
                    type: 'string',
                  },
                  new_version: {
                    type: 'string',
                  },
                },
                required: [
                  'site_id',
                  'site_url',
                  'site_name',
                  'type',
                  'slug',
                  'name',
                  'old_version',
                  'new_version',
                ],
              },
            },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
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
                required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
              },
            },
            summary: {
              type: 'object',
              properties: {
                total_updated: {
                  type: 'integer',
                },
                total_errors: {
                  type: 'integer',
                },
                sites_updated: {
                  type: 'integer',
                },
              },
              required: ['total_updated', 'total_errors', 'sites_updated'],
            },
          },
          required: ['updated', 'errors', 'summary'],
        },
        {
          type: 'object',
          properties: {
            queued: {
              type: 'boolean',
              const: true,
            },
            job_id: {
              type: 'string',
            },
            status_url: {
              type: 'string',
              format: 'uri',
            },
            updates_queued: {
              type: 'integer',
            },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  site_id: {
                    type: 'integer',
                  },
                  site_url: {
                    type: 'string',
                    format: 'uri',
                  },
                  site_name: {
                    type: 'string',
                  },
                  type: {
                    type: 'string',
                  },
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
                required: ['site_id', 'site_url', 'type', 'slug', 'code', 'message'],
              },
            },
          },
          required: ['queued', 'job_id', 'status_url', 'updates_queued', 'errors'],
        },
      ],
    },
  },
  'get-batch-job-status-v1': {
    category: 'batch',
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    has_instructions: false,
    input_schema: {
      type: 'object',
      properties: {
        job_id: {
          type: 'string',
        },
      },
      required: ['job_id'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: {
        job_id: {
          type: 'string',
        },
        type: {
          type: 'string',
          enum: ['sync', 'update', 'reconnect', 'disconnect', 'check', 'suspend'],
        },
        status: {
          type: 'string',
          enum: ['queued', 'processing', 'completed', 'failed'],
        },
        progress: {
          type: 'integer',
          minimum: 0,
          maximum: 100,
        },
        processed: {
          type: 'integer',
        },
        total: {
          type: 'integer',
        },
        succeeded: {
          type: 'integer',
        },
        failed: {
          type: 'integer',
        },
        started_at: {
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
        completed_at: {
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
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              site_id: {
                type: 'integer',
              },
              code: {
                type: 'string',
              },
              message: {
                type: 'string',
              },
            },
            required: ['site_id', 'code', 'message'],
          },
        },
        job_timed_out: {
          type: 'boolean',
        },
        job_error_code: {
          type: 'string',
        },
        job_error_message: {
          type: 'string',
        },
      },
      required: ['job_id', 'type', 'status', 'progress', 'processed', 'total', 'succeeded', 'failed'],
    },
  },
};
