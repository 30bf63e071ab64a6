package com.intellij.xdebugger.attach;

import com.intellij.execution.process.ProcessInfo;
import org.jetbrains.annotations.NotNull;

import java.util.List;

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/LocalAttachHost.java
public class LocalAttachHost extends EnvironmentAwareHost {
  public static final LocalAttachHost INSTANCE = new LocalAttachHost();

  // threading: bgt LocalAttachHost.java @d990b7fbda5743244708f7c9afcef23c2dc68feb states no rule; OSProcessUtil.getProcessList() runs `ps`, done on Dispatchers.IO by the Attach to Process dialog (AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b)
  @Override
  public @NotNull List<ProcessInfo> getProcessList() { throw new UnsupportedOperationException("stub"); }
}
