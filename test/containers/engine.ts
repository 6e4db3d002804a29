/**
 * podman and docker-compose as the container suite drives them: podman through
 * scripts/containers.sh (its engine settings and storage), docker-compose through podman's Docker
 * API at DOCKER_HOST, which that script's `test` command starts.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

export const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
const SCRIPT = join(ROOT, 'scripts', 'containers.sh');
/** The compose project: its network is `<project>_default`, its volumes `<project>_<name>`. */
export const PROJECT = 'rentalcontainers';
export const COMPOSE_FILES = ['docker-compose.yml', 'docker-compose.ferretdb.yml'];

for (const variable of [
  'DOCKER_HOST',
  'SBOM_FILE',
  'FERRETDB_IMAGE',
  'RABBITMQ_IMAGE',
  'REDIS_IMAGE',
  'JAEGER_IMAGE',
  'MAILDEV_IMAGE',
]) {
  if (!process.env[variable]) throw new Error(`${variable} is unset: run the container suite with scripts/containers.sh test`);
}

export async function podman(...args: string[]): Promise<string> {
  const { stdout } = await run(SCRIPT, ['podman', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** `podman <args>`, its exit code instead of an error when it fails. */
export async function podmanStatus(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, stdout: await podman(...args), stderr: '' };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/** docker-compose with `files` (the stack's two by default), in the project's directory. */
export async function compose(args: string[], files = COMPOSE_FILES): Promise<string> {
  const fileArgs = files.flatMap((file) => ['--file', join(ROOT, file)]);
  const { stdout } = await run('docker-compose', ['--project-name', PROJECT, '--project-directory', ROOT, ...fileArgs, ...args], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

/** The configuration docker-compose resolves from `files`: variables, merge keys and overrides applied. */
export async function composeConfig(files = COMPOSE_FILES): Promise<{ services: Record<string, any> }> {
  return parse(await compose(['config'], files));
}

/** The container of a compose service (its first instance). */
export const containerOf = (service: string) => `${PROJECT}_${service}_1`;

interface Inspected {
  State: { Status: string; StartedAt: string; ExitCode: number; Health?: { Status: string } };
  Config: { User: string };
}

export async function inspect(container: string): Promise<Inspected> {
  return (JSON.parse(await podman('container', 'inspect', container)) as Inspected[])[0];
}

/** Waits until every container named is healthy, failing with the states they are in after `seconds`. */
export async function waitHealthy(containers: string[], seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  let states: Record<string, string> = {};
  while (Date.now() < deadline) {
    // One inspection of them all: one podman process a round, not one for each container.
    const inspected = await podman('container', 'inspect', ...containers)
      .then((output) => JSON.parse(output) as (Inspected & { Name: string })[])
      .catch(() => []);
    states = Object.fromEntries(containers.map((name) => [name, 'missing']));
    for (const { Name, State } of inspected) states[Name.replace(/^\//, '')] = State.Health?.Status ?? State.Status;
    if (Object.values(states).every((status) => status === 'healthy')) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error(`not all healthy after ${seconds} s: ${JSON.stringify(states)}`);
}
