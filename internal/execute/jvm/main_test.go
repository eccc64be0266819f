package jvm

import (
	"os"
	"testing"

	"github.com/ticoder/ticoder/internal/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Main()
	os.Exit(m.Run())
}
