// Package testutil holds helpers shared by ticoder's tests.
//
// Tests read benchmark data from one of two places. Fixtures is a few
// problems and recorded samples committed with the code, so that the core
// tests run on a bare clone. FullData is the full benchmark data
// ($TICODER_DATA, else ../shared/data): a test that needs it skips with a
// one-line reason when it is missing, or fails when $TICODER_REQUIRE_DATA is
// 1, as in CI. ForEachData runs a test on both. Receive and Wait give every
// wait in a test a deadline and a message.
//
// Only tests (and other test helpers) import it; ticoder's own code must
// not.
package testutil
