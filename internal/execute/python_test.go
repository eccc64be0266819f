package execute

import (
	"testing"

	"github.com/ticoder/ticoder/internal/testutil/pyunit"
)

// TestPythonUnits runs the unit tests of the package's embedded Python, the
// worker's modules (pyworker/test_*.py beside them, each importing the
// module it tests as pyworker.NAME).
func TestPythonUnits(t *testing.T) {
	pyunit.Run(t, "pyworker", ".")
}
