/**
 * Several packages' `tsconfig.build.json` emitted by one compiler, the way
 * `tsc -p … --noCheck` emits each of them. The packages share most of what
 * they read (TypeScript's libs, @types/node, the SDK's declarations), so those
 * files are parsed and bound once for all of them instead of once per `tsc`
 * process: half the CPU time of building the packed packages one by one.
 */
import path from 'node:path';
import ts from 'typescript';

export interface TypeScriptBuild {
  /** The package's tsconfig.build.json. */
  tsconfig: string;
  /** Where its JavaScript and declarations go, in place of the config's outDir. */
  outDir: string;
}

/** Files that are the same for every package: read once, kept for the next package. */
const SHARED_FILE = /[\\/](node_modules|typescript[\\/]lib)[\\/]/;

/** Emits each build in turn, throwing on the first one with an error, as `tsc` exits. */
export function buildTypeScriptPackages(builds: TypeScriptBuild[]): void {
  const shared = new Map<string, ts.SourceFile | undefined>();
  for (const build of builds) {
    const parsed = parseConfig(build);
    const host = ts.createCompilerHost(parsed.options);
    const readSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
      if (!SHARED_FILE.test(fileName)) {
        return readSourceFile(fileName, languageVersion, onError, shouldCreate);
      }
      // The parse depends on the file's module format and language version, which
      // the same compiler options give every package alike.
      const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
      if (!shared.has(key)) {
        shared.set(key, readSourceFile(fileName, languageVersion, onError, shouldCreate));
      }
      return shared.get(key);
    };
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      projectReferences: parsed.projectReferences ?? [],
      host,
    });
    const emitted = program.emit();
    const errors = [
      ...program.getOptionsDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...emitted.diagnostics,
    ].filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0 || emitted.emitSkipped) {
      throw new Error(`building ${build.tsconfig} failed:\n${format(errors, host)}`);
    }
  }
}

function parseConfig(build: TypeScriptBuild): ts.ParsedCommandLine {
  const problems: ts.Diagnostic[] = [];
  const parsed = ts.getParsedCommandLineOfConfigFile(
    build.tsconfig,
    { outDir: path.resolve(build.outDir), noCheck: true },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => problems.push(diagnostic) },
  );
  const errors = [...problems, ...(parsed?.errors ?? [])];
  if (!parsed || errors.length > 0) {
    throw new Error(
      `reading ${build.tsconfig} failed:\n${format(errors, ts.createCompilerHost({}))}`,
    );
  }
  return parsed;
}

function format(diagnostics: readonly ts.Diagnostic[], host: ts.FormatDiagnosticsHost): string {
  return ts.formatDiagnostics(diagnostics, host);
}
