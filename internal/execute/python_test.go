package execute

import (
	"testing"

	"github.com/ticoder/ticoder/internal/testutil/pyunit"
)

// TestPythonUnits runs the unit tests of the package's embedded Python
// (test_*.py beside it).
func TestPythonUnits(t *testing.T) {
	pyunit.Run(t, ".")
}
