package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/scenarios"
)

// warningsFlag is --warnings: summary (the default), all or none.
type warningsFlag struct{ mode *manifests.WarningMode }

func (f warningsFlag) String() string {
	if f.mode == nil || *f.mode == "" {
		return string(manifests.WarnSummary)
	}
	return string(*f.mode)
}

func (f warningsFlag) Set(v string) error {
	switch m := manifests.WarningMode(v); m {
	case manifests.WarnSummary, manifests.WarnAll, manifests.WarnNone:
		*f.mode = m
		return nil
	}
	return errors.New("want summary, all or none")
}

// addWarningsFlag registers --warnings on fs.
func (m *Main) addWarningsFlag(fs *flag.FlagSet) {
	fs.Var(warningsFlag{&m.warnMode}, "warnings", "warnings about what is not simulated: summary (ignored objects counted per file), all (each at its line) or none")
}

// warn prints warnings on stderr, one a line, as --warnings says: each
// once, and in summary (the default) grouped.
func (m *Main) warn(ws scenarios.ErrorList) {
	mode := m.warnMode
	if mode == "" {
		mode = manifests.WarnSummary
	}
	for _, w := range manifests.Warnings(ws, mode) {
		fmt.Fprintln(m.Stderr, w.Error())
	}
}
