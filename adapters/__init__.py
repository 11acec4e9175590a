"""Platform adapters: Slack (slack-bolt), Telegram (python-telegram-bot) and the console."""
