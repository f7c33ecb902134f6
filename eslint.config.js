import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

/** Imports each package may not make (see docs/architecture.md). */
const boundaries = {
  'packages/contract/src/**': [
    '@flagman/db',
    '@flagman/server',
    '@flagman/cli',
    '@flagman/web',
    'fastify',
    'kysely',
  ],
  'packages/db/src/**': ['@flagman/server', '@flagman/cli', '@flagman/web', 'fastify'],
  'packages/executor/src/**': [
    '@flagman/db',
    '@flagman/server',
    '@flagman/cli',
    '@flagman/web',
    'fastify',
    'kysely',
  ],
  'packages/server/src/**': ['@flagman/cli', '@flagman/web'],
  'packages/web/src/**': ['@flagman/db', '@flagman/server', '@flagman/cli', 'kysely', 'fastify'],
  'e2e/**': ['@flagman/db', '@flagman/server', '@flagman/cli'],
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/coverage/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...Object.entries(boundaries).map(([files, forbidden]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.map((name) => ({
            group: [name, `${name}/*`],
            message: 'This import crosses a package boundary (see docs/architecture.md).',
          })),
        },
      ],
    },
  })),
  {
    // Tolerant reader: request bodies drop undeclared fields (see RouteDef.body in http.ts).
    files: ['packages/contract/src/**/*.ts'],
    ignores: ['packages/contract/src/**/__tests__/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='strictObject']",
          message: 'Request bodies ignore undeclared fields: use z.object (see RouteDef.body).',
        },
        {
          selector: "CallExpression[callee.property.name='strict'][arguments.length=0]",
          message: 'Request bodies ignore undeclared fields: use z.object (see RouteDef.body).',
        },
      ],
    },
  },
  {
    // Server internals: platform never reaches into domain modules.
    files: ['packages/server/src/platform/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../modules/*', '../modules/**'],
              message: 'platform/ must not import modules/.',
            },
          ],
        },
      ],
    },
  },
)
