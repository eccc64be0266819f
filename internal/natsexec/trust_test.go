package natsexec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"
)

// TestWorkerKeyFile: a missing key file is created for its owner only and
// then reused; one that others may read, or that holds no seed, is refused.
func TestWorkerKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "worker.nk")
	kp, err := LoadWorkerKey(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := st.Mode().Perm(); perm != 0o600 {
		t.Errorf("new key file has mode %04o, want 0600", perm)
	}
	if dst, err := os.Stat(filepath.Dir(path)); err != nil || dst.Mode().Perm() != 0o700 {
		t.Errorf("new key directory: %v, %v; want mode 0700", dst.Mode(), err)
	}
	again, err := LoadWorkerKey(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := kp.PublicKey()
	b, _ := again.PublicKey()
	if a != b || !nkeys.IsValidPublicUserKey(a) {
		t.Errorf("key read again is %s, was %s", b, a)
	}
	if pub, err := WorkerPublicKey(path); err != nil || pub != a {
		t.Errorf("WorkerPublicKey = %s, %v; want %s", pub, err, a)
	}

	seed, _ := kp.Seed()
	tests := []struct {
		name string
		data []byte
		mode os.FileMode
		want string
	}{
		{"world-readable", seed, 0o644, "chmod 600"},
		{"group-readable", seed, 0o640, "chmod 600"},
		{"group-writable", seed, 0o620, "chmod 600"},
		{"not a seed", []byte("hello\n"), 0o600, "unusable"},
		{"an account seed", accountSeed(t), 0o600, "not a user seed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "worker.nk")
			if err := os.WriteFile(p, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tc.mode); err != nil {
				t.Fatal(err)
			}
			_, err := LoadWorkerKey(p)
			if !errors.Is(err, ErrBadKeyFile) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("LoadWorkerKey = %v, want ErrBadKeyFile saying %q", err, tc.want)
			}
		})
	}
}

// accountSeed returns the seed of a new account key: a valid seed, but not
// a worker's.
func accountSeed(t *testing.T) []byte {
	t.Helper()
	kp, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	s, err := kp.Seed()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestParseTrust: a trust file lists worker public keys, one a line, with
// comments and blank lines; anything else is refused with its line number.
func TestParseTrust(t *testing.T) {
	k1, k2 := newKey(t), newKey(t)
	p1, _ := k1.PublicKey()
	p2, _ := k2.PublicKey()
	seed, _ := k1.Seed()
	tests := []struct {
		name string
		text string
		keys int
		want string // part of the error; "" for none
	}{
		{"empty", "", 0, ""},
		{"one", p1 + "\n", 1, ""},
		{"comments and blanks", "# lab workers\n\n  " + p1 + "  # gpu box\n" + p2 + "\n#" + p1 + "\n", 2, ""},
		{"duplicate", p1 + "\n" + p1 + "\n", 1, ""},
		{"no final newline", p1, 1, ""},
		{"a seed, not a public key", string(seed) + "\n", 0, "line 1"},
		{"garbage on line 3", p1 + "\n\nUNOTAKEY\n", 0, "line 3"},
		{"two keys on a line", p1 + " " + p2 + "\n", 0, "line 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := ParseTrust(strings.NewReader(tc.text))
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("ParseTrust = %v, want an error about %q", err, tc.want)
			case tc.want == "" && tr.Len() != tc.keys:
				t.Errorf("%d keys, want %d", tr.Len(), tc.keys)
			}
		})
	}
}

// TestCoordinatorNeedsTrust: a coordinator that trusts no key refuses to
// start (it could accept nothing).
func TestCoordinatorNeedsTrust(t *testing.T) {
	_, nc := broker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := NewCoordinator(ctx, nc, CoordinatorOptions{}); !errors.Is(err, ErrNoTrust) {
		t.Errorf("NewCoordinator without trust = %v, want ErrNoTrust", err)
	}
}
