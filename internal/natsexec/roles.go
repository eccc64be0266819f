package natsexec

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"

	"github.com/nats-io/nats-server/v2/server"
)

// Role is the part a client plays on the job queue; `ticoder broker` gives
// each its own NATS user and rights.
type Role string

// The roles of the job queue.
const (
	// RoleCoordinator queues jobs and reads results.
	RoleCoordinator Role = "coordinator"
	// RoleWorker takes jobs and publishes results.
	RoleWorker Role = "worker"
)

// Users of the broker that are not roles.
const (
	// adminUser is the broker's own in-process connection, which creates
	// the streams; no other connection may log in as it.
	adminUser = "ticoder-admin"
	// localUser is who a client without credentials is, on a broker
	// without a token (on loopback only): both roles, no stream admin.
	localUser = "local"
)

// rolePassword is the NATS password of role for the holder of token: a
// client derives it from its token, the broker from its own.
func rolePassword(token string, role Role) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte("ticoder nats role\x00" + string(role)))
	return hex.EncodeToString(m.Sum(nil))
}

// jsAPI is the prefix of JetStream's API subjects.
const jsAPI = "$JS.API."

// coordinatorPermissions are a coordinator's rights: queue jobs, read
// results (through consumers of its own on the results stream and direct
// gets), hear workers' status. It may not publish results, take jobs or
// change a stream.
func coordinatorPermissions() *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			JobsSubject,
			jsAPI + "INFO",
			jsAPI + "STREAM.INFO." + JobsStream,
			jsAPI + "STREAM.INFO." + ResultsStream,
			jsAPI + "DIRECT.GET." + ResultsStream,
			jsAPI + "DIRECT.GET." + ResultsStream + ".>",
			jsAPI + "STREAM.MSG.GET." + ResultsStream,
			jsAPI + "CONSUMER.CREATE." + ResultsStream + ".>",
			jsAPI + "CONSUMER.INFO." + ResultsStream + ".>",
			jsAPI + "CONSUMER.DELETE." + ResultsStream + ".>",
			jsAPI + "CONSUMER.MSG.NEXT." + ResultsStream + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>", StatusSubject}},
	}
}

// workerPermissions are a worker's rights: take and ack jobs through the
// shared consumer (which it may create), publish results and status. It
// may not queue jobs, read the results stream or change a stream.
func workerPermissions() *server.Permissions {
	consumer := JobsStream + "." + ConsumerName
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			resultsPrefix + ">",
			StatusSubject,
			jsAPI + "INFO",
			jsAPI + "STREAM.INFO." + JobsStream,
			jsAPI + "STREAM.INFO." + ResultsStream,
			jsAPI + "CONSUMER.CREATE." + consumer,
			jsAPI + "CONSUMER.CREATE." + consumer + ".>",
			jsAPI + "CONSUMER.DURABLE.CREATE." + consumer,
			jsAPI + "CONSUMER.INFO." + consumer,
			jsAPI + "CONSUMER.MSG.NEXT." + consumer,
			"$JS.ACK." + consumer + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
}

// unionPermissions are the rights of both p and q.
func unionPermissions(p, q *server.Permissions) *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: append(append([]string(nil), p.Publish.Allow...), q.Publish.Allow...)},
		Subscribe: &server.SubjectPermission{Allow: append(append([]string(nil), p.Subscribe.Allow...), q.Subscribe.Allow...)},
	}
}

// connectionTypes is a set of NATS connection types.
func connectionTypes(types ...string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, t := range types {
		m[t] = struct{}{}
	}
	return m
}
