package com.intellij.xdebugger.attach;

import com.intellij.execution.process.ProcessInfo;
import com.intellij.openapi.extensions.ExtensionPointName;
import com.intellij.openapi.project.Project;
import com.intellij.openapi.util.UserDataHolder;
import org.jetbrains.annotations.NotNull;

import java.util.List;

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/XAttachDebuggerProvider.java
public interface XAttachDebuggerProvider {
  ExtensionPointName<XAttachDebuggerProvider> EP = new ExtensionPointName<>("com.intellij.xdebugger.attachDebuggerProvider");

  // As the real one: a group of order 0 unless the provider names its own.
  // threading: bgt XAttachDebuggerProvider.java (file id 1845423089) states no rule; the Attach to Process dialog reads it while collecting items on Dispatchers.IO (AttachToProcessView.kt @793846bb014a8bbf20c4b307fe91a10ded22bb1c → AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b) and so does the adapter
  default @NotNull XAttachPresentationGroup<ProcessInfo> getPresentationGroup() {
    return new XAttachPresentationGroup<ProcessInfo>() {
      @Override public int getOrder() { return 0; }
      @Override public @NotNull String getGroupName() { return ""; }
      @Override public int compare(ProcessInfo a, ProcessInfo b) { return 0; }
    };
  }

  // threading: bgt XAttachDebuggerProvider.java (file id 1845423089) states no rule; called on Dispatchers.IO by AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b (in a Task.Backgroundable by the popup, AttachToProcessActionBase.java @7341dc1effbecb75c66ee9ae6796eabadf568f28)
  boolean isAttachHostApplicable(@NotNull XAttachHost attachHost);

  // threading: bgt XAttachDebuggerProvider.java (file id 1845423089) states no rule; called on Dispatchers.IO by AttachDialogCollectItemsUtil.kt @9b9ff165706956ffc3ed1f123b47b2ad43adc22b (JavaAttachDebuggerProvider attaches to every JVM there, file id 3970949856)
  public @NotNull List<? extends XAttachDebugger> getAvailableDebuggers(@NotNull Project project, @NotNull XAttachHost attachHost,
                                                                @NotNull ProcessInfo processInfo, @NotNull UserDataHolder contextHolder);
}
