// Package natsexec spreads ticoder's sandboxed work over many machines
// through NATS JetStream.
//
// A coordinator (Coordinator, an execute.Dispatcher behind execute.Remote)
// publishes batches of programs and tests as jobs on a WorkQueue stream,
// each with its content address as the JetStream message id, so a batch
// queued twice within the duplicate window is stored once. Workers (Serve,
// the `ticoder worker` command) pull jobs from one durable consumer with
// explicit acks, run them in their own sandbox pool exactly as the local
// engine would, send InProgress heartbeats while a job runs, publish the
// result on a results stream and only then ack the job. A worker that dies
// leaves its job unacked: after AckWait it goes to another worker. On its
// MaxDeliver-th delivery a job is not run again: the worker reports it as a
// crash ("killed its worker") and terminates it, and the coordinator then
// retries the batch's programs one by one, so only the program that kills
// workers ends as a crash.
//
// Results are kept on the results stream (one message subject per result
// part, the latest kept, for a day by default) as well as in the
// coordinator's SQLite execution cache, so a coordinator that was killed and
// restarted finds the results its workers finished meanwhile. Delivery is at
// least once; results are idempotent (keyed by content), and the
// coordinator publishes each program's row once, so nothing is lost or
// counted twice.
//
// Everything that comes off the queue is untrusted: a worker runs a job's
// programs only in its sandbox and checks the job's shape first; a
// coordinator checks every result's size and shape (and execute.Remote
// bounds its text again), so a rogue worker can spoil results it returns but
// cannot crash the coordinator.
//
// Broker starts an embedded NATS server with JetStream for users without a
// NATS deployment; it listens on loopback unless given a token or a server
// configuration with authentication.
package natsexec
