/// The atoms the backend uses, interned in one round trip when the connection opens.
struct AtomTable {
    let netActiveWindow, netWMName, utf8String, wmName, wmClass, wmClientMachine, wmTransientFor: Atom
    let netWMPID, netWMWindowType, netClientList, netWMAllowedActions, netWMActionMinimize: Atom
    let wmState, netWMState, netWMStateHidden, netSupportingWMCheck, netSupported, string: Atom
    let gtkApplicationID, netClientListStacking: Atom
    /// `_NET_WM_WINDOW_TYPE_*` values that mark a desktop-shell window (see `ShellWindows`).
    let shellWindowTypes: Set<Atom>

    init(_ display: XDisplay) throws {
        let names = ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "UTF8_STRING", "WM_NAME", "WM_CLASS",
                     "WM_CLIENT_MACHINE", "WM_TRANSIENT_FOR", "_NET_WM_PID", "_NET_WM_WINDOW_TYPE",
                     "_NET_CLIENT_LIST", "_NET_WM_ALLOWED_ACTIONS", "_NET_WM_ACTION_MINIMIZE", "WM_STATE",
                     "_NET_WM_STATE", "_NET_WM_STATE_HIDDEN", "_NET_SUPPORTING_WM_CHECK", "_NET_SUPPORTED",
                     "STRING", "_GTK_APPLICATION_ID", "_NET_CLIENT_LIST_STACKING"]
        let typeNames = ShellWindows.windowTypes.map { "_NET_WM_WINDOW_TYPE_" + $0 }
        let atoms = try display.internAtoms(names + typeNames)
        var next = atoms.makeIterator()
        func take() -> Atom { next.next() ?? .none }
        netActiveWindow = take(); netWMName = take(); utf8String = take(); wmName = take(); wmClass = take()
        wmClientMachine = take(); wmTransientFor = take(); netWMPID = take(); netWMWindowType = take()
        netClientList = take(); netWMAllowedActions = take(); netWMActionMinimize = take(); wmState = take()
        netWMState = take(); netWMStateHidden = take(); netSupportingWMCheck = take(); netSupported = take()
        string = take(); gtkApplicationID = take(); netClientListStacking = take()
        shellWindowTypes = Set(atoms.dropFirst(names.count))
    }
}
