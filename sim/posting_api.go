package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// posting_api.py (class TwitterAPI). Result and error strings are protocol
// constants reproduced from that file.

import (
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// TwitterAPI is upstream's TwitterAPI.
type TwitterAPI struct {
	username      pyval.Value
	password      pyval.Value
	authenticated pyval.Value
	tweets        *pyval.Dict
	comments      pyval.Value
	retweets      pyval.Value
	followingList pyval.Value
	tweetCounter  pyval.Value

	// post_tweet's mutable defaults `tags=[]` and `mentions=[]`: one list
	// object each, shared by every call that omits the argument. Upstream
	// shares them process-wide; here they are shared by every instance of
	// one Env (one entry evaluation, model and ground-truth side alike).
	defaultTags     *pyval.List
	defaultMentions *pyval.List
}

// NewTwitterAPI returns an instance as upstream's constructor leaves it.
func NewTwitterAPI(env *Env) *TwitterAPI {
	if env == nil {
		return &TwitterAPI{defaultTags: pyval.NewList(), defaultMentions: pyval.NewList()}
	}
	tags, mentions := env.postTweetDefaults()
	return &TwitterAPI{defaultTags: tags, defaultMentions: mentions}
}

// ClassName implements Instance.
func (*TwitterAPI) ClassName() string { return "TwitterAPI" }

// LoadScenario is upstream's _load_scenario: values from the config (or the
// defaults); tweet keys converted with int(), comment keys left as they are.
func (t *TwitterAPI) LoadScenario(config *pyval.Dict, _ bool) error {
	get := func(key string, def pyval.Value) pyval.Value { return configGet(config, key, def) }
	t.username = get("username", pyval.Str("john"))
	t.password = get("password", pyval.Str("john123"))
	t.authenticated = get("authenticated", pyval.Bool(false))
	tw := get("tweets", pyval.NewDict())
	twd, ok := tw.(*pyval.Dict)
	if !ok {
		return pyval.NoAttribute(tw, "items")
	}
	t.tweets = pyval.NewDict()
	for _, kv := range twd.Items() {
		k, err := pyval.ToInt(kv.Key)
		if err != nil {
			return err
		}
		t.tweets.Set(k, kv.Value)
	}
	t.comments = get("comments", pyval.NewDict())
	t.retweets = get("retweets", pyval.NewDict())
	t.followingList = get("following_list", pyval.NewList(pyval.Str("alice"), pyval.Str("bob")))
	t.tweetCounter = get("tweet_counter", pyval.Int(0))
	return nil
}

// State implements Instance.
func (t *TwitterAPI) State() *pyval.Dict {
	return publicAttrs(t.tweets != nil,
		"username", t.username,
		"password", t.password,
		"authenticated", t.authenticated,
		"tweets", t.tweets,
		"comments", t.comments,
		"retweets", t.retweets,
		"following_list", t.followingList,
		"tweet_counter", t.tweetCounter,
	)
}

func (t *TwitterAPI) notAuth(action string) pyval.Value {
	return errorDict("User not authenticated. Please authenticate before " + action + ".")
}

// missingTweet is `if tweet_id not in self.tweets: return {"error": ...}`:
// the error result when there is no tweet id, else nil.
func (t *TwitterAPI) missingTweet(id pyval.Value) (pyval.Value, error) {
	return errorUnlessIn(t.tweets, id, fmt.Sprintf("Tweet with ID %s not found.", pyval.StrOf(id)))
}

// strLower is s.lower() for a str.
func strLower(v pyval.Value) (pyval.Str, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return "", pyval.NoAttribute(v, "lower")
	}
	return pyval.Str(pyval.Lower(string(s))), nil
}

// lowerContains is `kw in content.lower()` (AttributeError when content is
// not a str).
func lowerContains(content pyval.Value, kw pyval.Str) (bool, error) {
	cl, err := strLower(content)
	if err != nil {
		return false, err
	}
	return strings.Contains(string(cl), string(kw)), nil
}

// AuthenticateTwitter is upstream's authenticate_twitter(username, password).
func (t *TwitterAPI) AuthenticateTwitter(args stubs.TwitterAPIAuthenticateTwitterArgs) (pyval.Value, error) {
	username, password := args.Username.V, args.Password.V
	if pyval.Equal(username, t.username) && pyval.Equal(password, t.password) {
		t.authenticated = pyval.Bool(true)
		return oneKey("authentication_status", pyval.Bool(true)), nil
	}
	return oneKey("authentication_status", pyval.Bool(false)), nil
}

// PostingGetLoginStatus is upstream's posting_get_login_status().
func (t *TwitterAPI) PostingGetLoginStatus() (pyval.Value, error) {
	return oneKey("login_status", pyval.Bool(pyval.Truthy(t.authenticated))), nil
}

// PostTweet is upstream's post_tweet(content, tags=[], mentions=[]). The
// returned dict is the stored tweet itself.
func (t *TwitterAPI) PostTweet(args stubs.TwitterAPIPostTweetArgs) (pyval.Value, error) {
	content, tags, mentions := args.Content.V, args.Tags.V, args.Mentions.V
	if tags == nil {
		tags = t.defaultTags
	}
	if mentions == nil {
		mentions = t.defaultMentions
	}
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("posting"), nil
	}
	tweet := pyval.NewDict()
	tweet.SetStr("id", t.tweetCounter)
	tweet.SetStr("username", t.username)
	tweet.SetStr("content", content)
	tweet.SetStr("tags", tags)
	tweet.SetStr("mentions", mentions)
	if err := pyval.SetItem(t.tweets, t.tweetCounter, tweet); err != nil {
		return nil, err
	}
	if err := increment(&t.tweetCounter); err != nil {
		return nil, err
	}
	return tweet, nil
}

// Retweet is upstream's retweet(tweet_id).
func (t *TwitterAPI) Retweet(args stubs.TwitterAPIRetweetArgs) (pyval.Value, error) {
	tweetID := args.TweetID.V
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("retweeting"), nil
	}
	if notFound, err := t.missingTweet(tweetID); notFound != nil || err != nil {
		return notFound, err
	}
	has, err := pyval.Contains(t.retweets, t.username)
	if err != nil {
		return nil, err
	}
	if !has {
		if err := pyval.SetItem(t.retweets, t.username, pyval.NewList()); err != nil {
			return nil, err
		}
	}
	mine, err := pyval.GetItem(t.retweets, t.username)
	if err != nil {
		return nil, err
	}
	already, err := pyval.Contains(mine, tweetID)
	if err != nil {
		return nil, err
	}
	if already {
		return oneKey("retweet_status", pyval.Str("Already retweeted")), nil
	}
	if err := pyval.Append(mine, tweetID); err != nil {
		return nil, err
	}
	return oneKey("retweet_status", pyval.Str("Successfully retweeted")), nil
}

// Comment is upstream's comment(tweet_id, comment_content). New comment
// keys are whatever tweet_id is (an int), next to the str keys that came
// from the initial config.
func (t *TwitterAPI) Comment(args stubs.TwitterAPICommentArgs) (pyval.Value, error) {
	tweetID, commentContent := args.TweetID.V, args.CommentContent.V
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("commenting"), nil
	}
	if notFound, err := t.missingTweet(tweetID); notFound != nil || err != nil {
		return notFound, err
	}
	has, err := pyval.Contains(t.comments, tweetID)
	if err != nil {
		return nil, err
	}
	if !has {
		if err := pyval.SetItem(t.comments, tweetID, pyval.NewList()); err != nil {
			return nil, err
		}
	}
	lst, err := pyval.GetItem(t.comments, tweetID)
	if err != nil {
		return nil, err
	}
	c := pyval.NewDict()
	c.SetStr("username", t.username)
	c.SetStr("content", commentContent)
	if err := pyval.Append(lst, c); err != nil {
		return nil, err
	}
	return oneKey("comment_status", pyval.Str("Comment added successfully")), nil
}

// Mention is upstream's mention(tweet_id, mentioned_usernames) (no
// authentication check upstream). It extends the tweet's mentions list in
// place, which may be post_tweet's shared default list.
func (t *TwitterAPI) Mention(args stubs.TwitterAPIMentionArgs) (pyval.Value, error) {
	tweetID := args.TweetID.V
	if notFound, err := t.missingTweet(tweetID); notFound != nil || err != nil {
		return notFound, err
	}
	tweet, err := pyval.GetItem(t.tweets, tweetID)
	if err != nil {
		return nil, err
	}
	m, err := pyval.GetItem(tweet, pyval.Str("mentions"))
	if err != nil {
		return nil, err
	}
	lst, ok := m.(*pyval.List)
	if !ok {
		return nil, pyval.NoAttribute(m, "extend")
	}
	items, err := args.MentionedUsernames.Iter()
	if err != nil {
		return nil, err
	}
	lst.Items = append(lst.Items, items...)
	return oneKey("mention_status", pyval.Str("Users mentioned successfully")), nil
}

// FollowUser is upstream's follow_user(username_to_follow).
func (t *TwitterAPI) FollowUser(args stubs.TwitterAPIFollowUserArgs) (pyval.Value, error) {
	usernameToFollow := args.UsernameToFollow.V
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("following"), nil
	}
	in, err := pyval.Contains(t.followingList, usernameToFollow)
	if err != nil {
		return nil, err
	}
	if in {
		return oneKey("follow_status", pyval.Bool(false)), nil
	}
	if err := pyval.Append(t.followingList, usernameToFollow); err != nil {
		return nil, err
	}
	return oneKey("follow_status", pyval.Bool(true)), nil
}

// ListAllFollowing is upstream's list_all_following().
func (t *TwitterAPI) ListAllFollowing() (pyval.Value, error) {
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("listing following"), nil
	}
	return oneKey("following_list", t.followingList), nil
}

// UnfollowUser is upstream's unfollow_user(username_to_unfollow).
func (t *TwitterAPI) UnfollowUser(args stubs.TwitterAPIUnfollowUserArgs) (pyval.Value, error) {
	usernameToUnfollow := args.UsernameToUnfollow.V
	if !pyval.Truthy(t.authenticated) {
		return t.notAuth("unfollowing"), nil
	}
	in, err := pyval.Contains(t.followingList, usernameToUnfollow)
	if err != nil {
		return nil, err
	}
	if !in {
		return oneKey("unfollow_status", pyval.Bool(false)), nil
	}
	if err := listRemove(t.followingList, usernameToUnfollow); err != nil {
		return nil, err
	}
	return oneKey("unfollow_status", pyval.Bool(true)), nil
}

// listRemove is lst.remove(v): drops the first element equal to v.
func listRemove(lst, v pyval.Value) error {
	l, ok := lst.(*pyval.List)
	if !ok {
		return pyval.NoAttribute(lst, "remove")
	}
	for i, e := range l.Items {
		if e == v || pyval.Equal(e, v) {
			l.Items = append(l.Items[:i:i], l.Items[i+1:]...)
			return nil
		}
	}
	return pyval.NewValueError("list.remove(x): x not in list")
}

// GetTweet is upstream's get_tweet(tweet_id): the stored tweet dict.
func (t *TwitterAPI) GetTweet(args stubs.TwitterAPIGetTweetArgs) (pyval.Value, error) {
	tweetID := args.TweetID.V
	if notFound, err := t.missingTweet(tweetID); notFound != nil || err != nil {
		return notFound, err
	}
	return pyval.GetItem(t.tweets, tweetID)
}

// tweetsBy lists the tweets whose "username" equals username.
func (t *TwitterAPI) tweetsBy(username pyval.Value) ([]pyval.Value, error) {
	var out []pyval.Value
	for _, tw := range t.tweets.Values() {
		u, err := pyval.GetItem(tw, pyval.Str("username"))
		if err != nil {
			return nil, err
		}
		if pyval.Equal(u, username) {
			out = append(out, tw)
		}
	}
	return out, nil
}

// GetUserTweets is upstream's get_user_tweets(username) (a list).
func (t *TwitterAPI) GetUserTweets(args stubs.TwitterAPIGetUserTweetsArgs) (pyval.Value, error) {
	username := args.Username.V
	out, err := t.tweetsBy(username)
	if err != nil {
		return nil, err
	}
	return pyval.NewList(out...), nil
}

// SearchTweets is upstream's search_tweets(keyword) (a list): keyword in
// the lower-cased content or equal to a lower-cased tag.
func (t *TwitterAPI) SearchTweets(args stubs.TwitterAPISearchTweetsArgs) (pyval.Value, error) {
	var out []pyval.Value
	for _, tw := range t.tweets.Values() {
		kw, err := args.Keyword.Lower()
		if err != nil {
			return nil, err
		}
		content, err := pyval.GetItem(tw, pyval.Str("content"))
		if err != nil {
			return nil, err
		}
		in, err := lowerContains(content, kw)
		if err != nil {
			return nil, err
		}
		if in {
			out = append(out, tw)
			continue
		}
		tags, err := pyval.GetItem(tw, pyval.Str("tags"))
		if err != nil {
			return nil, err
		}
		items, err := pyval.ListOf(tags)
		if err != nil {
			return nil, err
		}
		lowered, err := pyval.MapEach(items, strLower)
		if err != nil {
			return nil, err
		}
		for _, l := range lowered {
			if l == kw {
				out = append(out, tw)
				break
			}
		}
	}
	return pyval.NewList(out...), nil
}

// GetTweetComments is upstream's get_tweet_comments(tweet_id).
func (t *TwitterAPI) GetTweetComments(args stubs.TwitterAPIGetTweetCommentsArgs) (pyval.Value, error) {
	tweetID := args.TweetID.V
	if notFound, err := t.missingTweet(tweetID); notFound != nil || err != nil {
		return notFound, err
	}
	return pyval.DictGet(t.comments, tweetID, pyval.NewList())
}

// GetUserStats is upstream's get_user_stats(username).
func (t *TwitterAPI) GetUserStats(args stubs.TwitterAPIGetUserStatsArgs) (pyval.Value, error) {
	username := args.Username.V
	tw, err := t.tweetsBy(username)
	if err != nil {
		return nil, err
	}
	following := 0
	if pyval.Equal(username, t.username) {
		if following, err = pyval.Len(t.followingList); err != nil {
			return nil, err
		}
	}
	rts, err := pyval.DictGet(t.retweets, username, pyval.NewList())
	if err != nil {
		return nil, err
	}
	n, err := pyval.Len(rts)
	if err != nil {
		return nil, err
	}
	d := pyval.NewDict()
	d.SetStr("tweet_count", pyval.Int(len(tw)))
	d.SetStr("following_count", pyval.Int(following))
	d.SetStr("retweet_count", pyval.Int(n))
	return d, nil
}

func classTwitterAPI() Class {
	return Class{
		Name:    "TwitterAPI",
		Module:  "posting_api",
		New:     func(env *Env) Instance { return NewTwitterAPI(env) },
		Methods: stubs.TwitterAPIMethods,
	}
}
