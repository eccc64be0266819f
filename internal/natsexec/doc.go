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
// programs only in its sandbox and checks the job's shape first. Every
// result part is signed by the worker that ran the job with its ed25519
// key (an nkeys user key, LoadWorkerKey); the signature covers the SHA-256
// of the exact job message the worker took, the result's key, the part's
// number and the SHA-256 of the part's bytes (its count and rows). A
// coordinator (CoordinatorOptions.Trust) uses a part only if a key it
// trusts signed it for the message it queued under that key, and then
// checks its size and shape (execute.Remote bounds its text again) before
// anything reaches its cache; a part that fails is refused and the job
// queued again under a new key, and the run fails after Retries+1 refusals
// (ErrUnverified names the cause). So a client that is not a trusted worker
// cannot forge, plant (results on the stream are checked like live ones)
// or replay results, and a trusted worker that lies spoils only results of
// jobs whose message it has (those it was given), not others.
//
// Broker starts an embedded NATS server with JetStream for users without a
// NATS deployment. It has a user for each Role with its own subject rights
// (coordinators queue jobs and read results; workers take jobs and publish
// results; neither may change the streams, which the broker creates through
// an in-process connection of its own). With a token, clients log in as
// their role with a password derived from it (ConnectOptions.Role); without
// one the broker stays on loopback and local clients have both roles'
// rights. Beyond loopback every listener needs authentication and TLS, and
// monitoring stays on loopback (ErrOpenListener).
//
// natsexec must not trust what comes off the queue: a coordinator uses only
// results signed by a worker key it trusts, and a worker checks a job's
// shape before it runs it.
package natsexec
