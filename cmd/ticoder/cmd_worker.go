package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/ticoder/ticoder/internal/execute"
	"github.com/ticoder/ticoder/internal/natsexec"
	"github.com/ticoder/ticoder/internal/sandbox"
)

// workerOptions are the flags of `ticoder worker`.
type workerOptions struct {
	workers    int
	jobs       int
	id         string
	ackWait    time.Duration
	maxDeliver int
	drain      time.Duration
	key        string
	printKey   bool
}

func newWorkerCommand(g *globalOptions) *cobra.Command {
	o := &workerOptions{}
	cmd := &cobra.Command{
		Use:   "worker --nats URL [--workers N]",
		Short: "Run sandboxed jobs from a NATS queue for coordinators on other machines",
		Long: `Worker pulls jobs (programs and tests, or calls) that coordinators — check,
eval, gen, qe, run or serve with --nats — put on the queue, runs them in its
own sandbox pool exactly as a coordinator would run them locally, and sends
the results back. Start as many as you like, on as many machines, at any time:
each takes jobs as it has room.

While a job runs the worker tells the queue it is alive (every third of
--ack-wait); a worker that dies or hangs loses its job to another worker
after --ack-wait. A job delivered --max-deliver times (one that kills every
worker it reaches) is not run again: its programs are retried one by one and
the one that kills workers is reported as a crash. All workers share one
queue consumer, so give them the same --ack-wait and --max-deliver (the last
worker to start sets them).

Ctrl-C or SIGTERM drains: the worker takes no new job, finishes those it
holds (for up to --drain-timeout) and exits; a second signal hands the
unfinished jobs back to the queue at once.

The worker signs every result with its key (--key, created on first use,
mode 0600; a key file other users may read is refused). Coordinators accept
only results signed by a key they trust: a coordinator run as the same user
on the same machine trusts this key by itself; others list the worker's
public key (--print-key prints it, and the worker logs it at start) in their
--nats-trust file. A signature covers the exact job message the worker took
and the result's key, part and bytes, so it fits that job only.

The worker needs Linux user namespaces, as every sandbox does. It keeps no
cache: results are stored by the coordinator.`,
		Example: `  ticoder worker --nats nats://127.0.0.1:4222
  ticoder worker --print-key >> trusted-workers   # on each worker machine; coordinators use --nats-trust trusted-workers
  TICODER_NATS_TOKEN=... ticoder worker --nats tls://broker.lab:4222 --nats-ca ca.pem --workers 16`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorker(cmd.Context(), g, o, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.workers, "workers", 0, "sandboxed Python workers (default: two per CPU)")
	f.IntVar(&o.jobs, "jobs", 0, "jobs held at once (default: workers/2 + 1)")
	f.StringVar(&o.id, "id", "", "name shown to coordinators (default HOST-PID)")
	f.DurationVar(&o.ackWait, "ack-wait", 30*time.Second, "a job without an ack or heartbeat for this long goes to another worker")
	f.IntVar(&o.maxDeliver, "max-deliver", 4, "deliveries of a job before it is reported as a crash (at least 2)")
	f.DurationVar(&o.drain, "drain-timeout", 10*time.Minute, "on Ctrl-C or SIGTERM, how long to finish the jobs held")
	f.StringVar(&o.key, "key", "", "`FILE` of the key that signs results, created if missing (default $XDG_DATA_HOME/ticoder/worker.nk, ~/.local/share/ticoder/worker.nk)")
	f.BoolVar(&o.printKey, "print-key", false, "print the public key of --key (creating it if missing) for coordinators' --nats-trust, and exit")
	return cmd
}

func runWorker(ctx context.Context, g *globalOptions, o *workerOptions, stdout, stderr io.Writer) error {
	keyFile := o.key
	if keyFile == "" {
		var err error
		if keyFile, err = defaultWorkerKey(); err != nil {
			return fmt.Errorf("no home directory: %w (choose a key file with --key)", err)
		}
	}
	key, err := natsexec.LoadWorkerKey(keyFile)
	if err != nil {
		return err
	}
	pub, err := key.PublicKey()
	if err != nil {
		return fmt.Errorf("worker key %s: %w", keyFile, err)
	}
	if o.printKey {
		fmt.Fprintln(stdout, pub)
		return nil
	}
	url := g.natsURL()
	if url == "" {
		return usagef("worker: --nats URL is required (or $TICODER_NATS), e.g. --nats nats://127.0.0.1:4222 from `ticoder broker`")
	}
	if o.maxDeliver < 2 {
		return usagef("--max-deliver %d: want at least 2 (the last delivery reports the crash)", o.maxDeliver)
	}
	if o.ackWait < 300*time.Millisecond {
		return usagef("--ack-wait %s: want at least 300ms", o.ackWait)
	}
	workers := o.workers
	if workers <= 0 {
		workers = 2 * runtime.NumCPU()
	}
	if g.unsafe {
		fmt.Fprintln(stderr, "ticoder: WARNING: --unsafe-no-sandbox: jobs from the queue run WITHOUT isolation, with your user's access to files and network")
	}
	// Signals after the first (which cancels ctx: drain) stop at once.
	stop, cancelStop := context.WithCancel(context.Background())
	defer cancelStop()
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		// The first signal reaches sigs as well as ctx.
		select {
		case <-sigs:
		case <-ctx.Done():
		case <-stop.Done():
			return
		}
		slog.Warn("worker: draining: finishing the jobs held; a second Ctrl-C or SIGTERM hands them back")
		select {
		case <-sigs:
		case <-time.After(o.drain):
		case <-stop.Done():
			return
		}
		cancelStop()
	}()
	pool, err := execute.NewPool(stop, execute.Options{Workers: workers, Sandbox: sandbox.Config{Unsafe: g.unsafe}})
	if err != nil {
		return err
	}
	defer pool.Close()
	co := g.nats
	co.URL, co.Name, co.Role = url, "ticoder worker", natsexec.RoleWorker
	if co.Token == "" {
		co.Token = natsexec.TokenFromEnv()
	}
	nc, err := natsexec.Connect(co)
	if err != nil {
		return err
	}
	defer nc.Close()
	err = natsexec.Serve(ctx, stop, nc, natsexec.WorkerOptions{
		Runner: pool, Sandboxes: workers, Jobs: o.jobs, ID: o.id, Key: key,
		Settings: natsexec.Settings{AckWait: o.ackWait, MaxDeliver: o.maxDeliver},
		Ready: func(id string, jobs int) {
			fmt.Fprintf(stderr, "ticoder: worker %s connected to %s: %s, %s at a time; signing results with key %s (%s), which coordinators of other users or machines list in --nats-trust; Ctrl-C drains\n",
				id, nc.ConnectedUrlRedacted(), plural(workers, "sandboxed worker"), plural(jobs, "job"), pub, keyFile)
		},
	})
	if err != nil {
		return err
	}
	if stop.Err() != nil {
		return context.Canceled
	}
	return nil
}

// defaultWorkerKey returns the default worker key file,
// $XDG_DATA_HOME/ticoder/worker.nk (else ~/.local/share/ticoder/worker.nk).
func defaultWorkerKey() (string, error) {
	dir, err := dataHome()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "worker.nk"), nil
}
