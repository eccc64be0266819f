package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ticoder/ticoder/internal/llm/llmtest"
	"github.com/ticoder/ticoder/internal/project/projecttest"
)

// TestMCPProjectFile runs `ticoder mcp --root DIR` on the fixture project
// with a fake model: start_clarification with file and function asks about
// apply_discount, and finish returns the function, a patch of
// src/shop/pricing.py and tests that import shop.pricing, checked in the
// sandbox. Paths outside the root (.., a symlink, an absolute path) are
// refused, and no secret reaches the model or the results.
func TestMCPProjectFile(t *testing.T) {
	fx := projecttest.ProjectFixture(t)
	srv := llmtest.New(t, llmtest.Config{Respond: discountModel(nil)})
	outside := filepath.Join(filepath.Dir(fx.Root), "outside.py")
	if err := os.WriteFile(outside, []byte("def apply_discount(price, percent):\n    ...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(fx.Root, "src", "outside.py")); err != nil {
		t.Fatal(err)
	}
	bin := buildTicoder(t, t.TempDir())
	cmd := exec.Command(bin, "mcp", "--cache", filepath.Join(t.TempDir(), "cache.db"), "--root", fx.Root,
		"--model", "vllm:m@"+srv.URL, "--questions", "tests", "--no-write")
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+t.TempDir())
	cmd.Stderr = &syncBuffer{}
	c := startLines(t, cmd)
	c.rpc("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "0"}})
	for _, bad := range []string{"../outside.py", "src/../../outside.py", "src/outside.py", filepath.Join(fx.Root, "src/shop/pricing.py"), ".env"} {
		m := c.rpc("tools/call", map[string]any{"name": "start_clarification", "arguments": map[string]any{"file": bad, "function": "apply_discount"}})
		r, _ := m["result"].(map[string]any)
		if r == nil || r["isError"] != true {
			t.Errorf("file %q was accepted: %v", bad, m)
		}
	}
	st := c.tool("start_clarification", map[string]any{"file": "src/shop/pricing.py", "function": "apply_discount"})
	id, _ := st["session_id"].(string)
	if st["question"] == nil {
		t.Fatalf("no question to ask: %v", st)
	}
	for i := 0; i < 5; i++ {
		q, _ := st["question"].(map[string]any)
		if q == nil {
			break
		}
		st = c.tool("answer_question", map[string]any{"session_id": id, "question": q["test"], "answer": "yes"})
	}
	res := c.tool("finish", map[string]any{"session_id": id})
	code, _ := res["code"].(string)
	patch, _ := res["patch"].(string)
	tests, _ := res["tests"].(string)
	if !strings.Contains(code, "round_cents(price * (100 - percent) / 100)") || res["passed"] != true {
		t.Errorf("finish: code %q, passed %v, failures %v\n%v", code, res["passed"], res["failures"], res)
	}
	if !strings.HasPrefix(patch, "--- a/src/shop/pricing.py\n+++ b/src/shop/pricing.py\n") {
		t.Errorf("patch:\n%s", patch)
	}
	if !strings.Contains(tests, "from shop.pricing import apply_discount") {
		t.Errorf("tests:\n%s", tests)
	}
	var prompts []string
	for _, call := range srv.Calls() {
		prompts = append(prompts, string(call.Body))
	}
	noSecrets(t, "the model", prompts...)
	noSecrets(t, "the result", code, patch, tests)
}
