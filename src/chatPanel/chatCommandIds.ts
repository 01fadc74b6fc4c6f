/** The commands of the chat feature (package.json declares the same ids). */
export const ChatCommandIds = {
  askAboutSelection: 'promptreel.askAboutSelection',
  newChat: 'promptreel.newChat',
  openChatInEditor: 'promptreel.openChatInEditor',
  showChatHistory: 'promptreel.showChatHistory',
  exportChat: 'promptreel.exportChat',
  importChat: 'promptreel.importChat',
} as const;
