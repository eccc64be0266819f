package natsexec

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nats-io/nkeys"
)

// ErrNoTrust is returned by NewCoordinator when it trusts no worker key:
// it could accept no result, so it refuses to start.
var ErrNoTrust = errors.New("no trusted worker key")

// ErrBadKeyFile is returned for a worker key file that cannot be used: one
// that others may read, or that holds no key.
var ErrBadKeyFile = errors.New("unusable worker key file")

// LoadWorkerKey reads a worker's signing key (an nkeys user seed) from path,
// creating the file (mode 0600, its directory 0700) with a new key if it
// does not exist. A file that its group or others may read or write is
// refused: whoever reads it can sign results in the worker's name.
func LoadWorkerKey(path string) (nkeys.KeyPair, error) {
	b, err := readKeyFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createWorkerKey(path)
	}
	if err != nil {
		return nil, err
	}
	kp, err := nkeys.FromSeed(bytes.TrimSpace(b))
	if err != nil {
		return nil, fmt.Errorf("worker key %s: %w: %v", path, ErrBadKeyFile, err)
	}
	if pub, err := kp.PublicKey(); err != nil || !nkeys.IsValidPublicUserKey(pub) {
		return nil, fmt.Errorf("worker key %s: %w: not a user seed (SU…)", path, ErrBadKeyFile)
	}
	return kp, nil
}

// readKeyFile reads a key file after checking that only its owner may use it.
func readKeyFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("worker key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("worker key: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("worker key %s: %w: not a regular file", path, ErrBadKeyFile)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("worker key %s: %w: mode %04o lets other users read or change it; run chmod 600 %s (and make a new key if someone may have copied it)", path, ErrBadKeyFile, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return nil, fmt.Errorf("worker key %s: %w", path, err)
	}
	return b, nil
}

// createWorkerKey makes a new key and writes its seed to path, failing if
// the file appeared meanwhile.
func createWorkerKey(path string) (nkeys.KeyPair, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("worker key: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, fmt.Errorf("worker key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("worker key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("worker key: %w", err)
	}
	if _, err := f.Write(append(seed, '\n')); err != nil {
		f.Close()
		return nil, fmt.Errorf("worker key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("worker key %s: %w", path, err)
	}
	return kp, nil
}

// WorkerPublicKey returns the public key of the worker key in path, which
// must exist; coordinators trust workers by it.
func WorkerPublicKey(path string) (string, error) {
	b, err := readKeyFile(path)
	if err != nil {
		return "", err
	}
	kp, err := nkeys.FromSeed(bytes.TrimSpace(b))
	if err != nil {
		return "", fmt.Errorf("worker key %s: %w: %v", path, ErrBadKeyFile, err)
	}
	return kp.PublicKey()
}

// Trust is the set of worker public keys a coordinator accepts results
// from. It is not changed after it is made and is safe for concurrent use;
// the zero value trusts nobody.
type Trust struct {
	keys map[string]nkeys.KeyPair
}

// NewTrust returns a Trust of the given public keys (nkeys user keys, U…).
func NewTrust(keys ...string) (Trust, error) {
	t := Trust{keys: map[string]nkeys.KeyPair{}}
	for _, k := range keys {
		if !nkeys.IsValidPublicUserKey(k) {
			return Trust{}, fmt.Errorf("trusted worker key %.60q: not a worker public key (U… as `ticoder worker --print-key` prints it)", k)
		}
		kp, err := nkeys.FromPublicKey(k)
		if err != nil {
			return Trust{}, fmt.Errorf("trusted worker key %.60q: %w", k, err)
		}
		t.keys[k] = kp
	}
	return t, nil
}

// ParseTrust reads a trust file: one worker public key a line; blank lines
// and text after # are ignored.
func ParseTrust(r io.Reader) (Trust, error) {
	var keys []string
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !nkeys.IsValidPublicUserKey(line) {
			return Trust{}, fmt.Errorf("line %d: %.60q is not a worker public key (U… as `ticoder worker --print-key` prints it)", n, line)
		}
		keys = append(keys, line)
	}
	if err := sc.Err(); err != nil {
		return Trust{}, err
	}
	return NewTrust(keys...)
}

// ReadTrust reads the trust file at path (see ParseTrust).
func ReadTrust(path string) (Trust, error) {
	f, err := os.Open(path)
	if err != nil {
		return Trust{}, fmt.Errorf("trusted worker keys: %w", err)
	}
	defer f.Close()
	t, err := ParseTrust(f)
	if err != nil {
		return Trust{}, fmt.Errorf("trusted worker keys %s: %w", path, err)
	}
	return t, nil
}

// Union returns the keys of t and u together.
func (t Trust) Union(u Trust) Trust {
	out := Trust{keys: map[string]nkeys.KeyPair{}}
	for k, v := range t.keys {
		out.keys[k] = v
	}
	for k, v := range u.keys {
		out.keys[k] = v
	}
	return out
}

// Len returns the number of trusted keys.
func (t Trust) Len() int { return len(t.keys) }

// verify checks that sig is signer's signature of msg and that t trusts
// signer.
func (t Trust) verify(signer string, msg, sig []byte) error {
	kp, ok := t.keys[signer]
	if !ok {
		return fmt.Errorf("signed by %.60q, a key this coordinator does not trust", signer)
	}
	if err := kp.Verify(msg, sig); err != nil {
		return fmt.Errorf("bad signature by %.12s…: %w", signer, err)
	}
	return nil
}

// envelope is a result part on the wire: the part's JSON as the worker
// wrote it, and the worker's signature of it.
type envelope struct {
	V int `json:"v"`
	// Signer is the worker's public key.
	Signer string `json:"signer"`
	// Sig is the signature of signedBytes.
	Sig []byte `json:"sig"`
	// Body is a resultMsg, exactly the bytes signed.
	Body json.RawMessage `json:"body"`
}

// signedBytes is what a worker signs for one result part: the SHA-256 of
// the exact job message it took off the queue, the result's key, the
// part's number and the SHA-256 of the part's bytes (which hold the part
// count and the rows). A result so signed fits only the job that was
// queued with that message under that key.
func signedBytes(jobDigest [32]byte, key string, part int, body []byte) []byte {
	h := sha256.Sum256(body)
	var b bytes.Buffer
	b.WriteString("ticoder result\x00")
	b.WriteString(strconv.Itoa(wireVersion))
	b.WriteByte(0)
	b.Write(jobDigest[:])
	b.WriteString(key)
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(part))
	b.WriteByte(0)
	b.Write(h[:])
	return b.Bytes()
}

// seal signs one result part's body for the job with digest jobDigest and
// returns the message to publish.
func seal(kp nkeys.KeyPair, jobDigest [32]byte, m *resultMsg) ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	sig, err := kp.Sign(signedBytes(jobDigest, m.Key, m.Part, body))
	if err != nil {
		return nil, fmt.Errorf("sign result: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("sign result: %w", err)
	}
	out, err := json.Marshal(envelope{V: wireVersion, Signer: pub, Sig: sig, Body: body})
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	return out, nil
}
