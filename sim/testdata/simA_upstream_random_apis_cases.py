# Call sequences for gen_simA_upstream_diff.py (sim-A's differential fixtures).
# Regenerate (from this folder, upstream checkout in gen_simA_upstream_diff.py's sys.path):
#   python3 simA_upstream_random_apis_cases.py && PYTHONHASHSEED=0 python3 gen_simA_upstream_diff.py /tmp/randcases2.json > simA_upstream_random_apis.json
import json, random
random.seed(777)
exec(open('simA_upstream_cases.py').read().split("cases = []")[0].replace("fs = ", "_fs = "))
exec("tw = " + open('simA_upstream_cases.py').read().split("tw = ")[1].split("\n")[0])
exec("ms = " + open('simA_upstream_cases.py').read().split("ms = ")[1].split("\n")[0])
exec("tk = " + open('simA_upstream_cases.py').read().split("tk = ")[1].split("\n")[0])
R = random.choice
users = ["'john'", "'amy'", "'alice'", "'bob'", "'zed'"]
ids = ["0", "5", "6", "7", "8", "99", "'0'"]
tw_ops = [lambda: "authenticate_twitter(%s, %s)" % (R(users), R(["'pw'", "'x'"])), lambda: "posting_get_login_status()",
  lambda: "post_tweet(%r%s)" % (R(["hi there", "Hello again", "news"]), R(["", ", tags=['#t']", ", mentions=['@m']", ", ['#a'], ['@b']"])),
  lambda: "retweet(%s)" % R(ids), lambda: "comment(%s, %r)" % (R(ids), R(["nice", "ok"])), lambda: "mention(%s, %s)" % (R(ids), R(["['@q']", "['@r', '@s']"])),
  lambda: "follow_user(%s)" % R(users), lambda: "unfollow_user(%s)" % R(users), lambda: "list_all_following()", lambda: "get_tweet(%s)" % R(ids),
  lambda: "get_user_tweets(%s)" % R(users), lambda: "search_tweets(%r)" % R(["hello", "#t", "news", "#A"]), lambda: "get_tweet_comments(%s)" % R(ids), lambda: "get_user_stats(%s)" % R(users)]
uids = ["'USR001'", "'USR002'", "'USR005'", "'USR006'", "'USR404'"]
ms_ops = [lambda: "message_login(%s)" % R(uids), lambda: "message_get_login_status()", lambda: "list_users()", lambda: "get_user_id(%s)" % R(["'Alice'", "'Eve'", "'Zed'", "'Frank'"]),
  lambda: "send_message(%s, %r)" % (R(uids), R(["hi", "Hi Bob", "again"])), lambda: "delete_message(%s)" % R(uids), lambda: "view_messages_sent()",
  lambda: "add_contact(%s)" % R(["'Frank'", "'Alice'", "'Gus'"]), lambda: "search_messages(%r)" % R(["hi", "E", "again"]), lambda: "get_message_stats()"]
tids = ["1", "2", "3", "4", "9"]
tk_ops = [lambda: "ticket_login(%s, 'pw')" % R(["'ann'", "'bo'", "''"]), lambda: "ticket_get_login_status()",
  lambda: "create_ticket(%r%s)" % (R(["t", "u"]), R(["", ", 'd'", ", 'd', 3", ", priority=6"])), lambda: "get_ticket(%s)" % R(tids),
  lambda: "close_ticket(%s)" % R(tids), lambda: "resolve_ticket(%s, 'fixed')" % R(tids), lambda: "edit_ticket(%s, %s)" % (R(tids), R(["{'title': 'T'}", "{'status': 'Open', 'priority': None}", "{'owner': 1, 'title': 'x'}"])),
  lambda: "get_user_tickets(%s)" % R(["", "'open'", "'Closed'"])]
tk2 = {"ticket_queue": [{"id": 1, "title": "t1", "description": "d", "status": "Open", "priority": 2, "created_by": "ann"}], "ticket_counter": 2}
cases = []
for i in range(4):
    cases.append({"name": "tw_rand_%d" % i, "class": "TwitterAPI", "config": tw if i % 2 else {}, "calls": ["authenticate_twitter('john', %r)" % ("pw" if i % 2 else "john123")] + [R(tw_ops)() for _ in range(50)]})
    cases.append({"name": "ms_rand_%d" % i, "class": "MessageAPI", "config": ms if i % 2 else {}, "calls": ["message_login('USR001')"] + [R(ms_ops)() for _ in range(50)]})
    cases.append({"name": "tk_rand_%d" % i, "class": "TicketAPI", "config": tk2 if i % 2 else {}, "calls": ["ticket_login('ann', 'pw')"] + [R(tk_ops)() for _ in range(50)]})
json.dump(cases, open('/tmp/randcases2.json', 'w'))
