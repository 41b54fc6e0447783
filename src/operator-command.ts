/**
 * What the operator's commands (account:plan, account:credits, catalog:seed, catalog:import,
 * stock:import, stock:languages, db:search-indexes, data:generate, reindex, index:verify,
 * indexer:disable, and the indexer's and the feed worker's own command lines) share: a command line
 * read by commander that speaks Portuguese, in its help and in its own errors (one line naming the
 * option), the exit code of a mistake, and an unexpected failure said in one line.
 */
import { Command, CommanderError, InvalidArgumentError, type Option } from 'commander';
import { commandFailureMessage } from './errors.js';

/** A command whose help and mistakes are said in Portuguese; parse it with parseCommandLine. */
export function operatorCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .helpOption('-h, --help', 'mostra esta ajuda')
    .exitOverride()
    .configureOutput({
      writeErr: () => {},
      writeOut: (text) =>
        process.stdout.write(
          text
            .replace('Usage:', 'Utilização:')
            .replace('[options]', '[opções]')
            .replace('Arguments:', 'Argumentos:')
            .replace('Options:', 'Opções:'),
        ),
    })
    .configureHelp({ optionDescription });
}

/** An option's parser for a whole number from `min` to `max`, saying the range when it is not one. */
export function wholeNumber(min: number, max: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (!/^[0-9]+$/.test(text.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`"${text}" não é válido: indique um número inteiro de ${min} a ${max}.`);
    return n;
  };
}

/** An option's help line with its choices and its default (a flag's false left out) in Portuguese. */
function optionDescription(option: Option): string {
  const extra = [
    ...(option.argChoices ? [`valores: ${option.argChoices.join(', ')}`] : []),
    ...(option.defaultValue !== undefined && !option.isBoolean()
      ? [`por omissão: ${option.defaultValueDescription ?? String(option.defaultValue)}`]
      : []),
  ];
  return extra.length ? `${option.description} (${extra.join('; ')})` : option.description;
}

/** "a, b e c" */
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} e ${items.at(-1)}` : (items[0] ?? '');

/** The option a commander message quotes ('--email <e-mail>'), or the message's own words. */
const quoted = (error: CommanderError, index = 0) =>
  [...error.message.matchAll(/'([^']+)'/g)][index]?.[1] ?? '';

/** Commander's own errors, in Portuguese. */
function commanderMessage(program: Command, error: CommanderError): string {
  const options = listed(program.options.filter((o) => o.long && o.long !== '--help').map((o) => o.long!));
  switch (error.code) {
    case 'commander.missingMandatoryOptionValue':
      return `Falta a opção obrigatória ${quoted(error)}.`;
    case 'commander.unknownOption':
      return `Opção desconhecida: ${quoted(error) || error.message}. ${options ? `Opções: ${options}.` : 'Este comando não tem opções.'}`;
    case 'commander.missingArgument':
      return `Falta o argumento obrigatório <${quoted(error)}>.`;
    case 'commander.optionMissingArgument':
      return `Falta o valor da opção ${quoted(error)}.`;
    case 'commander.invalidArgument':
      return `Opção ${/option '([^']+)'/.exec(error.message)?.[1] ?? ''}: ${error.message.split('. ').slice(1).join('. ')}`;
    case 'commander.conflictingOption':
      return `As opções ${quoted(error, 0)} e ${quoted(error, 1)} não podem ser usadas juntas.`;
    case 'commander.excessArguments':
      return options
        ? `Argumentos a mais: use só as opções ${options}.`
        : 'Este comando não leva argumentos.';
    default:
      return error.message;
  }
}

/**
 * Reads the command line: null when the command goes on; otherwise the exit code, 0 after the help
 * was shown, 1 after a mistake was said on stderr.
 */
export function parseCommandLine(program: Command): number | null {
  try {
    program.parse();
    return null;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
    process.stderr.write(`Erro: ${commanderMessage(program, error)}\n`);
    return 1;
  }
}

/**
 * Runs a command's `main` and exits with the code it returns; a failure it did not expect (the
 * database unreachable, …) is said in one Portuguese line on stderr and exits 1.
 */
export async function runOperatorCommand(main: () => Promise<number>): Promise<never> {
  const code = await main().catch((error: unknown) => {
    process.stderr.write(`Erro: ${commandFailureMessage(error)}\n`);
    return 1;
  });
  process.exit(code);
}
