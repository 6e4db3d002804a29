import { totalsOf } from './counted';

const METRICS = `# HELP rpc_duration_seconds Requests sent to a service over RabbitMQ
# TYPE rpc_duration_seconds histogram
rpc_duration_seconds_bucket{le="0.005",pattern="applications.create",outcome="ok",service="gateway"} 3
rpc_duration_seconds_count{pattern="applications.create",outcome="ok",service="gateway"} 10
rpc_duration_seconds_count{pattern="applications.create",outcome="INVALID",service="gateway"} 2
rpc_duration_seconds_count{pattern="applications.ping",outcome="ok",service="gateway"} 40
db_commands_total{command="insert",service="applications"} 7
db_commands_total{command="hello",service="applications"} 90
events_relayed_total{outcome="published",found="on_write",service="applications"} 5
events_relayed_total{outcome="dropped",found="pass",service="applications"} 1
`;

describe('totalsOf', () => {
  it('counts a request and its answer, the events published apart, and the commands, pings and housekeeping left out', () => {
    expect(totalsOf('gateway', METRICS)).toEqual({ dbCommands: 7, brokerMessages: 2 * 12, events: 5, formServiceCalls: 0 });
  });

  it('counts the form’s own requests as its service calls', () => {
    expect(totalsOf('form', METRICS).formServiceCalls).toBe(12);
  });
});
