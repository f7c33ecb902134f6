/** Translation key of a template's run action: Run, Build or Deploy by template type. */
export function runLabelKey(type: string): 'run.build' | 'run.deploy' | 'run.run' {
  return type === 'build' ? 'run.build' : type === 'deploy' ? 'run.deploy' : 'run.run'
}
