import type { ShippedAbility } from './shipped-catalogue.js';

/**
 * The shipped release 6.1 tag and client abilities the sandbox emulates (abilities/groups.ts),
 * verbatim from `shared/catalogue/shipped-abilities.json` as the rest of SHIPPED_CATALOGUE.
 */
export const SHIPPED_GROUP_ABILITIES: Readonly<Record<string, ShippedAbility>> = {
  'list-clients-v1': {
    category: 'clients',
    has_instructions: false,
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
    input_schema: {
      type: ['object', 'null'],
      properties: {
        page: {
          type: 'integer',
          minimum: 1,
          maximum: 10000,
          default: 1,
        },
        per_page: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          default: 20,
        },
        status: {
          type: 'string',
          enum: ['any', 'active', 'suspended'],
          default: 'any',
        },
        search: {
          type: 'string',
          default: '',
        },
        include: {
          type: 'array',
          items: {
            type: 'integer',
          },
          default: [],
        },
        exclude: {
          type: 'array',
          items: {
            type: 'integer',
          },
          default: [],
        },
      },
      default: [],
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
  'get-client-sites-v1': {
    category: 'clients',
    has_instructions: false,
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
              url: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              status: {
                type: 'string',
              },
              client_id: {
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
  'list-tags-v1': {
    category: 'tags',
    has_instructions: false,
    annotations: {
      readonly: true,
      destructive: false,
      idempotent: true,
    },
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
        search: {
          type: 'string',
          default: '',
        },
        include: {
          type: 'array',
          items: {
            type: 'integer',
          },
        },
        exclude: {
          type: 'array',
          items: {
            type: 'integer',
          },
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
  'get-tag-sites-v1': {
    category: 'tags',
    has_instructions: false,
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
              id: {
                type: 'integer',
              },
              url: {
                type: 'string',
              },
              name: {
                type: 'string',
              },
              status: {
                type: 'string',
              },
              client_id: {
                type: ['integer', 'null'],
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
};
