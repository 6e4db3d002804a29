/** How a bench run is configured: `npm run bench -- [options]`. */
export interface BenchOptions {
  /** Seconds each measured run lasts. */
  durationS: number;
  /** Seconds of the same load, not measured, before each measured run. */
  warmupS: number;
  /** Concurrent connections (autocannon clients) of each run, in order. */
  connections: number[];
  /** Print the results as JSON on stdout instead of tables. */
  json: boolean;
  /** Seconds of mixed load for the memory soak; when set, the soak is all that runs. */
  soakS: number | null;
  /** Write a CPU profile of each stack process here and summarize them. */
  profileDir: string | null;
  /** Run only these scenarios and references (all when null). */
  only: string[] | null;
  /** Options for node on each stack process's command line (heap limits, say). */
  nodeArgs: string[];
  /** Count the services' database commands (DB_COMMAND_METRICS) and report them per request. */
  dbCommands: boolean;
  /** Only what tracing costs: the traced scenarios with tracing off, on, and sampled (tracing-cost.ts). */
  tracing: boolean;
  /** How many times `--tracing` goes through its modes, or `--targets` through the stacks; each figure is the median of the rounds. */
  rounds: number;
  /** Only the performance targets: the references, the stack and BENCH_BASELINE_ROOT's in turn, then a soak (targets.ts). */
  targets: boolean;
}

export const USAGE = `npm run bench -- [options]

  --duration <s>        seconds each measured run lasts (default 10)
  --warmup <s>          seconds of unmeasured load before each run (default 3)
  --connections <list>  concurrent connections, comma separated (default 1,32)
  --json                print JSON instead of tables
  --soak [<s>]          only a memory soak: the mix at the highest concurrency for <s> seconds
                        (default 300), RSS sampled from the end of the warmup to the end
  --profile <dir>       start the stack with --cpu-prof, write the profiles to <dir> and
                        summarize where each process spends its time
  --only <list>         run only these scenarios and references, comma separated;
                        form-submission and event-publish run last, each on a stack of its
                        own with the form or the webhooks service
  --node-args "<args>"  options for node when starting each stack process, e.g.
                        "--max-old-space-size=96"
  --db-commands         start the services with DB_COMMAND_METRICS=true and report the
                        database commands each scenario sends per request (the counting
                        costs the services some CPU: leave it off when comparing CPU)
  --tracing             only what tracing costs: get-property and create-application on a
                        stack with tracing off, one with every trace sampled and one with 10%
                        sampled, running side by side and driven in turn, exporting to an
                        OTLP/HTTP sink of the bench's own; no references are run
  --targets             only the performance targets, as a table of target, measured and met:
                        round after round, the references nest-rmq-echo and nest-get-property,
                        this tree's stack and the baseline's (BENCH_BASELINE_ROOT, another
                        built tree) through get-property, create-application, get-application
                        and list-applications at the highest concurrency (default 32); then, for
                        each tree on a stack of its own with the form and database commands
                        counted, the messages and commands of 50 creates and 50 form section
                        saves sent one at a time, and how its source reads (apps/applications'
                        folder layering, files over 400 lines); then the mix on this tree's
                        stack for the soak's length (--soak, default 300 s)
  --rounds <n>          with --tracing, go through the three modes n times (default 3), each
                        round starting one mode further on; with --targets through the stacks;
                        report the median of each

Environment: AMQP_URL, MONGODB_URI (the broker and database of the stack and the references);
BENCH_BASELINE_ROOT, with --targets, the root of another built tree (today's main, say) to
compare this one with; BENCH_BASELINE_NODE, the node executable the baseline's stack runs on
(another Node release: with BENCH_BASELINE_ROOT set to this tree, the same code on two runtimes);
BENCH_URL to measure a running gateway instead of starting one, with BENCH_API_KEY (its key)
and optionally BENCH_PIDS (name=pid,... of its processes, whose memory and CPU to report);
BENCH_WATCH (name=pid,...) for other processes to report on beside the stack's, such as the
database server.`;

export function parseOptions(argv: string[]): BenchOptions {
  const options: BenchOptions = {
    durationS: 10,
    warmupS: 3,
    connections: [1, 32],
    json: false,
    soakS: null,
    profileDir: null,
    only: null,
    nodeArgs: [],
    dbCommands: false,
    tracing: false,
    rounds: 3,
    targets: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value\n\n${USAGE}`);
      return next;
    };
    switch (flag) {
      case '--duration':
        options.durationS = positive(flag, value());
        break;
      case '--warmup':
        options.warmupS = positive(flag, value(), true);
        break;
      case '--connections':
        options.connections = value()
          .split(',')
          .map((c) => Math.round(positive(flag, c)));
        break;
      case '--json':
        options.json = true;
        break;
      case '--soak':
        options.soakS = /^\d/.test(argv[i + 1] ?? '') ? positive(flag, value()) : 300;
        break;
      case '--profile':
        options.profileDir = value();
        break;
      case '--only':
        options.only = value().split(',');
        break;
      case '--node-args':
        options.nodeArgs = value().split(/\s+/).filter(Boolean);
        break;
      case '--db-commands':
        options.dbCommands = true;
        break;
      case '--tracing':
        options.tracing = true;
        break;
      case '--targets':
        options.targets = true;
        break;
      case '--rounds':
        options.rounds = Math.round(positive(flag, value()));
        break;
      case '--help':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown option ${flag}\n\n${USAGE}`);
    }
  }
  return options;
}

function positive(flag: string, text: string, zeroAllowed = false): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || (n === 0 && !zeroAllowed)) throw new Error(`${flag}: ${text} is not a positive number`);
  return n;
}

/**
 * Whole-number options of a bench script, `--name value` pairs over `defaults`; an unknown name
 * or a value that is not a positive integer stops the script.
 */
export function readIntegerOptions<T extends Record<string, number>>(argv: string[], defaults: T): T {
  const options = { ...defaults };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (!(name in options) || !Number.isInteger(value) || value < 1) throw new Error(`bad option ${argv[i]} ${argv[i + 1]}`);
    (options as Record<string, number>)[name] = value;
  }
  return options;
}
