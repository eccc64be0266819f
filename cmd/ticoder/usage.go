package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// requiredAnnotation marks a flag that must be given; checkFlags enforces it
// (cobra's own check runs before any hook and returns an untyped error).
const requiredAnnotation = "ticoder-required"

// usageErrors makes every way of calling a command wrongly a usageError
// (exit status 2) with a message a person understands: flag values that do
// not parse, unknown flags, unexpected arguments, unknown subcommands and
// missing required flags. It walks the whole tree once the commands exist.
func usageErrors(root *cobra.Command) {
	root.SetFlagErrorFunc(flagError)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if args := c.Args; args != nil {
			c.Args = func(cmd *cobra.Command, a []string) error {
				if err := args(cmd, a); err != nil {
					return usagef("%s: %v (see %s --help)", commandName(cmd), err, cmd.CommandPath())
				}
				return nil
			}
		}
		if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
			c.Args = cobra.ArbitraryArgs
			c.RunE = unknownSubcommand
			c.SuggestionsMinimumDistance = 2
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if v := f.Annotations[cobra.BashCompOneRequiredFlag]; len(v) == 1 && v[0] == "true" {
				delete(f.Annotations, cobra.BashCompOneRequiredFlag)
				_ = c.Flags().SetAnnotation(f.Name, requiredAnnotation, []string{"true"})
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// commandName returns cmd's path without the program's name ("qe eval").
func commandName(cmd *cobra.Command) string {
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// unknownSubcommand runs a command group: its help when called alone, a
// usage error naming the closest subcommands when given another word.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += fmt.Sprintf(": did you mean %s?", strings.Join(s, " or "))
	}
	var names []string
	for _, c := range cmd.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return usagef("%s (commands: %s; see %s --help)", msg, strings.Join(names, ", "), cmd.CommandPath())
}

// flagError rewords the errors of flag parsing for a person and makes them
// usage errors.
func flagError(cmd *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		return usageError{invalidValue(invalid.GetFlag(), invalid.GetValue(), invalid.Unwrap())}
	}
	return usagef("%v (see %s --help)", err, cmd.CommandPath())
}

// invalidValue says what a flag of f's type wants, with its default as the
// example.
func invalidValue(f *pflag.Flag, value string, cause error) error {
	example := f.DefValue
	want := ""
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		want = "a whole number"
	case "float32", "float64":
		want = "a number"
	case "duration":
		want = "a duration with a unit"
		if example == "0s" {
			example = "5s"
		}
	case "bool":
		want, example = "true or false", "true"
	}
	if want == "" {
		return fmt.Errorf("--%s %q: %v", f.Name, value, cause)
	}
	return fmt.Errorf("--%s %q: want %s, e.g. --%s %s", f.Name, value, want, f.Name, example)
}

// positiveFlags are the flags, of any command, whose value must be above 0
// when given (their zero default stands for a computed one).
var positiveFlags = map[string]bool{"workers": true, "factor": true}

// checkFlags checks what flag parsing does not: required flags, time
// limits or durations that are negative, and counts and factors that are
// not above 0.
func checkFlags(cmd *cobra.Command) error {
	var missing []string
	var problems []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if v := f.Annotations[requiredAnnotation]; len(v) == 1 && !f.Changed {
			missing = append(missing, "--"+f.Name)
		}
		if f.Changed && positiveFlags[f.Name] {
			if v, err := strconv.ParseFloat(f.Value.String(), 64); err == nil && v <= 0 {
				problems = append(problems, fmt.Sprintf("--%s %s: give a number above 0, or leave the flag out for its default", f.Name, f.Value))
			}
		}
		if f.Changed && f.Value.Type() == "duration" {
			if v, err := time.ParseDuration(f.Value.String()); err == nil && v < 0 {
				problems = append(problems, fmt.Sprintf("--%s %s: a duration must not be negative", f.Name, f.Value))
			}
		}
	})
	switch {
	case len(missing) == 1:
		return usagef("%s: %s is required (see %s --help)", commandName(cmd), missing[0], cmd.CommandPath())
	case len(missing) > 1:
		return usagef("%s: %s are required (see %s --help)", commandName(cmd), strings.Join(missing, " and "), cmd.CommandPath())
	case len(problems) > 0:
		return usagef("%s", strings.Join(problems, "; "))
	}
	return nil
}
