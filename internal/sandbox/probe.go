package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
)

// probeNamespaces starts one real sandbox running `python3 -c pass`.
func probeNamespaces() error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cfg := Config{Args: []string{"-I", "-c", "pass"}}.withDefaults()
	cmd, err := commandNoProbe(cfg)
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: cannot create namespaces (%v); enable unprivileged user namespaces "+
			"(sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces>0)", ErrUnavailable, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		err = ctx.Err()
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return fmt.Errorf("%w: %s", ErrUnavailable, msg)
	}
	return nil
}
