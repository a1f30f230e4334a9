package main

import (
	"notifio/internal/autostart"

	"notifio/internal/datadir"
)

// startAtLogin is Settings' start at login: the same entry `notifio
// autostart on` writes, for this binary and data folder.
type startAtLogin struct{ args windowArgs }

func (startAtLogin) On() (bool, error) {
	st, err := autostart.Get()
	return st.On, err
}

func (s startAtLogin) Set(on bool) error {
	if !on {
		return autostart.Disable()
	}
	exe, err := autostart.Executable()
	if err != nil {
		return err
	}
	dir := s.args.dataDir
	if def, err := datadir.Default(); err == nil && def == dir {
		dir = "" // the default needs no --data
	}
	cmd, err := autostart.Command(exe, dir)
	if err != nil {
		return err
	}
	return autostart.Enable(cmd)
}
