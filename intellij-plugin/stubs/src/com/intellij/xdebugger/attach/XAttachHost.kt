package com.intellij.xdebugger.attach

import com.intellij.execution.process.ProcessInfo

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/XAttachHost.kt
interface XAttachHost {
  // threading: bgt XAttachHost.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b states no rule; lists the host's processes (LocalAttachHost: OSProcessUtil.getProcessList, a `ps` run), which the Attach to Process dialog does on Dispatchers.IO (AttachDialogCollectItemsUtil.kt, same commit). Deprecated there for the suspending getProcessListAsync, which 2025.2 may lack; this one is in every version.
  fun getProcessList(): List<ProcessInfo>
}
