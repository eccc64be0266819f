// Package testutil holds helpers shared by ticoder's tests.
package testutil
