package com.intellij.xdebugger;

import com.intellij.lang.Language;
import com.intellij.openapi.application.ApplicationManager;
import com.intellij.openapi.vfs.VirtualFile;
import com.intellij.xdebugger.breakpoints.XBreakpointType;
import com.intellij.xdebugger.breakpoints.XLineBreakpointType;
import com.intellij.xdebugger.evaluation.EvaluationMode;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java
public abstract class XDebuggerUtil {
  // As the real one: the application service (the JUnit fakes register theirs).
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java (file id 8137234962 @06e5dcf7dbac92a023b66ef00a6ab6129a77aec7): read, no threading annotation
  public static XDebuggerUtil getInstance() { return ApplicationManager.getApplication().getService(XDebuggerUtil.class); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java (file id 8137234962 @06e5dcf7dbac92a023b66ef00a6ab6129a77aec7): read, no threading annotation
  public abstract XLineBreakpointType<?>[] getLineBreakpointTypes();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java (file id 8137234962 @06e5dcf7dbac92a023b66ef00a6ab6129a77aec7): read, no threading annotation
  public abstract <T extends XBreakpointType> T findBreakpointType(@NotNull Class<T> typeClass);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java (file id 8137234962 @06e5dcf7dbac92a023b66ef00a6ab6129a77aec7): read, no threading annotation
  public abstract @Nullable XSourcePosition createPosition(@Nullable VirtualFile file, int line);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerUtil.java (file id 8137234962 @06e5dcf7dbac92a023b66ef00a6ab6129a77aec7): read, no threading annotation
  public abstract @NotNull XExpression createExpression(@NotNull String text, Language language, String custom, @NotNull EvaluationMode mode);
}
