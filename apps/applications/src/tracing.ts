// Imported first by main.ts, before anything the instrumentations patch is loaded (see startTracing).
import { startTracing } from '@app/observability/tracing/tracing';

startTracing('applications');
