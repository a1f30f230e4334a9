package cli

import (
	"context"
	"fmt"

	"notifio/internal/autostart"

	"notifio/internal/model"
)

const autostartUsage = `notifio autostart on|off|status [--data DIR] [--json]

on      start Notifio's watcher (notifio --hidden, with its tray icon) when you log in;
        with --data, that data folder
off     do not start it at login (the running watcher goes on)
status  whether it starts at login, and the command it runs`

// cmdAutostart switches starting at login on or off and tells how it stands.
func cmdAutostart(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "autostart", autostartUsage)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return flagErr(err)
	}
	if len(pos) != 1 {
		return usagef("say on, off or status, e.g. notifio autostart on")
	}
	switch pos[0] {
	case "on":
		exe := env.Executable
		if exe == "" {
			if exe, err = autostart.Executable(); err != nil {
				return err
			}
		}
		cmd, err := autostart.Command(exe, env.DataDir)
		if err != nil {
			return err
		}
		if err := autostart.Enable(cmd); err != nil {
			return &model.UserError{Msg: "Notifio could not set itself to start at login: " + err.Error(), Err: err}
		}
	case "off":
		if err := autostart.Disable(); err != nil {
			return &model.UserError{Msg: "Notifio could not stop starting at login: " + err.Error(), Err: err}
		}
	case "status":
	default:
		return usagef("unknown autostart action %q: say on, off or status", pos[0])
	}
	return env.printAutostart()
}

// printAutostart prints whether Notifio starts at login.
func (env *Env) printAutostart() error {
	st, err := autostart.Get()
	if err != nil {
		return err
	}
	if env.JSON {
		return env.printJSON(struct {
			On      bool   `json:"on"`
			Where   string `json:"where"`
			Command string `json:"command,omitempty"`
		}{st.On, st.Where, st.Command})
	}
	if st.On {
		fmt.Fprintf(env.Stdout, "Notifio starts when you log in (%s):\n  %s\n", st.Where, st.Command)
	} else {
		fmt.Fprintln(env.Stdout, "Notifio does not start when you log in. Turn it on with: notifio autostart on")
	}
	return nil
}
