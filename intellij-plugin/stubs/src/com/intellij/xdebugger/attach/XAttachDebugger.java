package com.intellij.xdebugger.attach;

import com.intellij.execution.process.ProcessInfo;
import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/XAttachDebugger.java
public interface XAttachDebugger {
  // threading: any XAttachDebugger.java (file id 3280021662) states no rule; a name
  public @NotNull String getDebuggerDisplayName();

  // The real one declares `throws com.intellij.execution.ExecutionException` (an Exception).
  // threading: edt XAttachDebugger.java (file id 3280021662) states no rule; the Attach to Process dialog calls it from its OK action on the EDT (AttachToProcessDialog.kt @fc3f96e8e25034a66145f6349fae5973c7b9a083 → attachToProcessWithDebugger, AttachDialogUtil.kt @0d756ce25492936f431ce64650c9fff6046a34f0), the popup from its final step (AttachToProcessActionBase.java @7341dc1effbecb75c66ee9ae6796eabadf568f28); Python's starts its session with startSessionAndShowTab (@RequiresEdt)
  void attachDebugSession(@NotNull Project project, @NotNull XAttachHost attachHost, @NotNull ProcessInfo processInfo) throws Exception;
}
