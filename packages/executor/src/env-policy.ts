/*
 * Which process environment variables a value from outside Flagman (what a webhook delivery
 * carries) may set. The project's own environment sets any variable; an outside value only
 * plain ones: never a variable that makes a shell, an interpreter, the dynamic loader or one
 * of the task's tools run other code, read another configuration or send traffic elsewhere.
 */

/** Names an outside value never sets (compared in upper case). */
const PROTECTED_NAMES = new Set([
  'PATH',
  'HOME',
  'PWD',
  'OLDPWD',
  'SHELL',
  'USER',
  'LOGNAME',
  'TMPDIR',
  'TMP',
  'TEMP',
  // Shells read these at start-up or while running a script.
  'ENV',
  'CDPATH',
  'IFS',
  'PS4',
  'PROMPT_COMMAND',
  'GLOBIGNORE',
  'SHELLOPTS',
  'INPUTRC',
  'HISTFILE',
  // Interpreters and runtimes load code or options from these.
  'PERL5LIB',
  'PERL5OPT',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  'GEM_HOME',
  'GEM_PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_EXTRA_CA_CERTS',
  'CLASSPATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'PSMODULEPATH',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'KUBECONFIG',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
  // Proxies would send the task's traffic, and the credentials in it, elsewhere.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'FTP_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
])

/** Families of names an outside value never sets (compared in upper case). */
const PROTECTED_PREFIXES = [
  // The dynamic loader (glibc, musl, macOS) and the C library's allocator hooks.
  'LD_',
  'DYLD_',
  'MALLOC_',
  // bash: BASH_ENV, exported functions (BASH_FUNC_*) and its other settings.
  'BASH',
  'PYTHON',
  'PIP_',
  'ANSIBLE_',
  'GIT_',
  'SSH_',
  'GNUPG',
  'GPG_',
  'TF_',
  'TOFU_',
  'TERRAGRUNT_',
  'PULUMI_',
  'DOTNET_',
  'COMPLUS_',
  'CORECLR_',
  'POWERSHELL_',
  'LUA_',
  'XDG_',
  'SUDO_',
  'AWS_',
  'GOOGLE_',
  'AZURE_',
  'ARM_',
  // The task's own metadata, set by the server.
  'SEMAPHORE_',
  'FLAGMAN_',
]

/** Names a shell can read as `$NAME`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Whether a value from outside Flagman may set the process environment variable `name`:
 * a plain variable name that is none of the protected ones above, in any letter case.
 */
export function outsideEnvAllowed(name: string): boolean {
  if (!ENV_NAME.test(name)) return false
  const upper = name.toUpperCase()
  if (PROTECTED_NAMES.has(upper)) return false
  return !PROTECTED_PREFIXES.some((prefix) => upper.startsWith(prefix))
}

/**
 * The variables of `values` that an outside value may set (see `outsideEnvAllowed`), and the
 * names left out. Text stays as it is; numbers and booleans are written as text; other values
 * (objects, lists, null) are left out.
 */
export function outsideEnv(values: Record<string, unknown>): {
  env: Record<string, string>
  skipped: string[]
} {
  const env: Record<string, string> = {}
  const skipped: string[] = []
  for (const [name, value] of Object.entries(values)) {
    const text =
      typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : undefined
    if (text === undefined || text.includes('\0') || !outsideEnvAllowed(name)) {
      skipped.push(name)
      continue
    }
    env[name] = text
  }
  return { env, skipped }
}
